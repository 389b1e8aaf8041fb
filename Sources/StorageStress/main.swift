// A helper for GirdersStorage's process tests: writes keys into a file store and reports each completed write.
//
// usage: StorageStress <folder> <key-hex> <prefix> <count>
// Prints "done <i>" after the i-th durable write of "<prefix>-<i>" = "value-<prefix>-<i>".
import Foundation
import GirdersStorage

let arguments = CommandLine.arguments
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
