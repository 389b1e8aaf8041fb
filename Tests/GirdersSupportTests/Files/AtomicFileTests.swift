import Foundation
import Testing

import GirdersSupport

/// `AtomicFile`: a file replaced in one step, durable or not, and never a part of one.
struct AtomicFileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("girders-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The names in the folder, temporaries included (they start with a dot).
    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test(arguments: [true, false])
    func aWriteReplacesTheFileWholeAndLeavesNoTemporary(durable: Bool) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("entry").path
        try AtomicFile.write(Array("old".utf8), to: path, durable: durable)
        try AtomicFile.write(Array("new contents".utf8), to: path, durable: durable)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new contents")
        #expect(try names() == ["entry"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    @Test func withoutReplacingAnExistingFileIsKeptAndTheCallSaysSo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("first").path
        #expect(try AtomicFile.write(Array("one".utf8), to: path, replacing: false))
        #expect(try AtomicFile.write(Array("two".utf8), to: path, replacing: false) == false)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "one")
        #expect(try names() == ["first"])
    }

    @Test func aWriteIntoAMissingFolderFailsNamingTheTemporaryAndLeavesNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("missing/entry").path
        #expect {
            try AtomicFile.write(Array("x".utf8), to: path, durable: false)
        } throws: { error in
            "\(error)".contains("create") && "\(error)".contains("missing")
        }
        #expect(try names().isEmpty)
    }
}
