import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``SystemCookieJar`` over an `HTTPCookieStorage` of its own: what it stores comes back as ``Cookie``s, and many
/// tasks may store and read at once (the case its `@unchecked Sendable` promises).
struct SystemCookieJarTests {
    let url: URL

    init() throws {
        url = try #require(URL(string: "https://system.example/app/"))
    }

    func freshStorage() throws -> HTTPCookieStorage {
        try #require(URLSessionConfiguration.ephemeral.httpCookieStorage)
    }

    @Test func storedCookiesComeBackForTheirURL() throws {
        let jar = SystemCookieJar(try freshStorage())
        jar.store(["a=1; Path=/", "b=2; Path=/app; Secure"], from: url)
        #expect(jar.cookies(for: url).map(\.name).sorted() == ["a", "b"])
        #expect(jar.cookieHeader(for: url)?.contains("a=1") == true)
        jar.removeAll()
        #expect(jar.cookies(for: url).isEmpty)
    }

    @Test func manyTasksStoreAndReadAtOnce() async throws {
        let jar = SystemCookieJar(try freshStorage())
        let url = self.url
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    jar.store(["c\(index)=\(index); Path=/"], from: url)
                    _ = jar.cookieHeader(for: url)
                }
            }
        }
        #expect(jar.cookies(for: url).count == 64)
    }
}
