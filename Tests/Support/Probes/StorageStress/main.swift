// A helper for GirdersStorage's process tests.
//
// usage: StorageStress <folder> <key-hex> <prefix> <count>
//   writes keys into a file store; prints "done <i>" after the i-th durable write of
//   "<prefix>-<i>" = "value-<prefix>-<i>".
// usage: StorageStress shared <key> [<value>]
//   GirdersSwift's call shape: with a value, KeychainStorage.shared.save(string:forKey:); then prints
//   KeychainStorage.shared.string(forKey:) (or "nil") and the store's folder, one per line.
import Foundation
import GirdersStorage

let arguments = CommandLine.arguments
if arguments.count >= 3, arguments[1] == "shared" {
    if arguments.count == 4, !KeychainStorage.shared.save(string: arguments[3], forKey: arguments[2]) {
        exit(1)
    }
    let value = KeychainStorage.shared.string(forKey: arguments[2]) ?? "nil"
    print(value, KeychainStorage.shared.folder?.path ?? "(keychain)", separator: "\n")
    exit(0)
}
guard arguments.count == 5, let count = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: StorageStress <folder> <key-hex> <prefix> <count>\n".utf8))
    exit(2)
}
var key = Data()
var hex = Substring(arguments[2])
while hex.count >= 2, let byte = UInt8(hex.prefix(2), radix: 16) {
    key.append(byte)
    hex = hex.dropFirst(2)
}
do {
    let storage = try FileSecureStorage(folder: URL(fileURLWithPath: arguments[1]), key: .raw(key))
    for index in 0..<count {
        try storage.writeString("value-\(arguments[3])-\(index)", forKey: "\(arguments[3])-\(index)")
        FileHandle.standardOutput.write(Data("done \(index)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("StorageStress: \(error)\n".utf8))
    exit(1)
}
