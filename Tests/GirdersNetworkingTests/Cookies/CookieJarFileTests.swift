import Foundation
import GirdersTestServers
import Testing

@testable import GirdersNetworking

/// An ``RFC6265CookieJar`` writes only where the app says, mode 0600, only persistent cookies, and reads back only
/// what it could have written.
struct CookieJarFileTests {
    @Test func persistentCookiesGoToTheGivenFileWithMode0600AndComeBack() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cookies.json")
        let jar = try RFC6265CookieJar(file: file)
        let origin = URL(string: "https://example.com/")!
        jar.store(["session=1"], from: origin)
        #expect(!FileManager.default.fileExists(atPath: file.path), "a session cookie is never written")
        jar.store(["kept=2; Max-Age=3600; Secure"], from: origin)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(jar.lastWriteFailure == nil)
        let reopened = try RFC6265CookieJar(file: file)
        #expect(reopened.cookieHeader(for: origin) == "kept=2")
        #expect(reopened.cookieHeader(for: URL(string: "http://example.com/")!) == nil, "still Secure")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers == ["cookies.json"], "no temporary file remains")
    }

    @Test func aFileThatIsNotACookieListIsAnErrorNamingIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cookies.json")
        try Data("{\"version\":1,\"cookies\":[{\"name\":".utf8).write(to: file)
        #expect(throws: ResponseError.self) { try RFC6265CookieJar(file: file) }
        do {
            _ = try RFC6265CookieJar(file: file)
        } catch {
            #expect("\(error)".contains(file.path))
        }
        let fifo = folder.appendingPathComponent("fifo.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(throws: ResponseError.self, "a FIFO is refused, not waited on") { try RFC6265CookieJar(file: fifo) }
        let link = folder.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        #expect(throws: ResponseError.self, "a link is not followed") { try RFC6265CookieJar(file: link) }
    }

    @Test func storedCookiesThatBreakTheRulesAreDroppedOnLoad() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cookies.json")
        let future = Date().addingTimeInterval(3_600)
        let cookies = [
            Cookie(name: "good", value: "1", domain: "example.com", expires: future),
            Cookie(name: "expired", value: "1", domain: "example.com", expires: Date(timeIntervalSince1970: 0)),
            Cookie(name: "inject", value: "1\r\nX: y", domain: "example.com", expires: future),
            Cookie(name: "huge", value: String(repeating: "x", count: 5_000), domain: "example.com", expires: future),
            Cookie(name: "forever", value: "1", domain: "example.com", expires: .distantFuture),
            Cookie(name: "session", value: "1", domain: "example.com"),
        ]
        try CookieJarFile.write(cookies, to: file)
        let jar = try RFC6265CookieJar(file: file)
        #expect(jar.allCookies.map(\.name) == ["good"])
    }
}
