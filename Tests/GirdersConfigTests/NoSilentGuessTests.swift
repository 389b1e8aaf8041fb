import Foundation
import GirdersConfig
import Testing

/// XML property lists that Foundation or an earlier reader accepted with a guess: each is now an error that names
/// the file and the line, and environment names cannot lead outside the configuration folder.
struct NoSilentGuessTests {
    func plist(_ body: String, declaration: String = #"<?xml version="1.0" encoding="UTF-8"?>"#) -> Data {
        Data("\(declaration)\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n".utf8)
    }

    func error(loading data: Data) -> String? {
        do {
            _ = try Configuration(baseData: data)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aRepeatedKeyIsAnErrorNamingItsLine() throws {
        let message = try #require(
            error(loading: plist("<key>a</key><string>1</string>\n<key>a</key><string>2</string>")))
        #expect(message.contains("Configuration.plist (data) at line 5"), "\(message)")
        #expect(message.contains("the key \"a\" appears twice"), "\(message)")
    }

    @Test func invalidUTF8IsAnErrorAtItsPosition() throws {
        var data = plist("<key>a</key><string>ok X</string>")
        let position = try #require(data.firstIndex(of: UInt8(ascii: "X")))
        data[position] = 0xFF
        let message = try #require(error(loading: data))
        #expect(message.contains("at line 4: column 24: invalid UTF-8"), "\(message)")
    }

    @Test(arguments: ["UTF-16", "ISO-8859-1", "x-unknown"])
    func anEncodingOtherThanUTF8IsRejectedNotIgnored(_ encoding: String) throws {
        let data = plist(
            "<key>a</key><string>x</string>", declaration: "<?xml version=\"1.0\" encoding=\"\(encoding)\"?>")
        let message = try #require(error(loading: data))
        #expect(message.contains("encoding \"\(encoding)\""), "\(message)")
        #expect(
            error(
                loading: plist("<key>a</key><string>x</string>", declaration: "<?xml version='1.0' encoding='utf-8'?>"))
                == nil)
    }

    @Test(arguments: [
        ("0x-10", "is not an integer"), ("0x", "is not an integer"), ("0x+1F", "is not an integer"),
        ("9223372036854775808", "does not fit in a 64-bit signed integer"),
        ("18446744073709551615", "does not fit in a 64-bit signed integer"),
        ("-99999999999999999999", "does not fit in a 64-bit signed integer"),
    ])
    func integersAreExactOrAnError(text: String, problem: String) throws {
        let message = try #require(error(loading: plist("<key>n</key><integer>\(text)</integer>")))
        #expect(message.contains(problem), "\(message)")
        let fine = try Configuration(
            baseData: plist("<key>n</key><integer>0x1F</integer><key>m</key><integer>-9223372036854775808</integer>"))
        #expect(fine.int(forKey: "n") == 31 && fine.int(forKey: "m") == Int.min)
    }

    @Test(arguments: ["x/../../Configuration-outside", "../outside", "..", ".hidden", "a/b", "with space", "", "ü"])
    func anEnvironmentNameThatCouldLeaveTheFolderIsRefused(_ name: String) throws {
        let root = try PlistFolder()
        let folder = root.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try PropertyListSerialization.data(fromPropertyList: ["k": "base"], format: .xml, options: 0)
            .write(to: folder.appendingPathComponent("Configuration.plist"))
        try PropertyListSerialization.data(fromPropertyList: ["k": "outside"], format: .xml, options: 0)
            .write(to: root.url.appendingPathComponent("Configuration-outside.plist"))
        do {
            let loaded = try Configuration(directory: folder, processEnvironment: ["GIRDERS_ENV": name])
            #expect(name.trimmingCharacters(in: .whitespaces).isEmpty && loaded.string(forKey: "k") == "base")
        } catch {
            #expect(error.description.contains("Invalid configuration environment"), "\(error)")
            #expect(error.description.contains("GIRDERS_ENV"), "\(error)")
        }
    }

    @Test func validEnvironmentNamesStillLoad() throws {
        let folder = try PlistFolder()
        try folder.write("Configuration.plist", ["k": "base"])
        try folder.write("Configuration-staging-2.eu_west.plist", ["k": "overlay"])
        let loaded = try Configuration(directory: folder.url, environment: "staging-2.eu_west")
        #expect(loaded.string(forKey: "k") == "overlay")
    }
}
