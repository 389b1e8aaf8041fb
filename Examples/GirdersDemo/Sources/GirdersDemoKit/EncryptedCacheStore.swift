import Foundation
import GirdersHTTPCache
import GirdersNetworking
import GirdersStorage

/// The HTTP cache's store: each response an item of the app's `SecureStorage`, so a signed-in user's responses (and
/// the credentials that tell users apart) are encrypted at rest. GirdersHTTPCache knows only `HTTPCacheStore`.
final class EncryptedCacheStore: HTTPCacheStore {
    let storage: any SecureStorage
    init(storage: any SecureStorage) { self.storage = storage }

    func name(_ key: CacheKey) -> String { "http-cache:\(key.url)\n\(key.partition)" }
    func names(_ prefix: String = "http-cache:") -> [String] {
        ((try? storage.allKeys()) ?? []).filter { $0.hasPrefix(prefix) }
    }
    func response(for key: CacheKey) -> CachedResponse? {
        (try? storage.readData(forKey: name(key))).flatMap { try? JSONDecoder().decode(CachedResponse.self, from: $0) }
    }
    func store(_ response: CachedResponse, for key: CacheKey) {
        if let data = try? JSONEncoder().encode(response) { try? storage.writeData(data, forKey: name(key)) }
    }
    func removeResponse(for key: CacheKey) { try? storage.deleteData(forKey: name(key)) }
    func removeResponses(for url: String) { for name in names("http-cache:\(url)\n") { removeItem(name) } }
    func removeAll() { for name in names() { removeItem(name) } }
    private func removeItem(_ name: String) { try? storage.deleteData(forKey: name) }
}
