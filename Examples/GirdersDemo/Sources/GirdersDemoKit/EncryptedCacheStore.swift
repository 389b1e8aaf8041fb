import Foundation
import GirdersNetworking
import GirdersStorage

/// An `HTTPCacheStore` that keeps each response as one item of a `SecureStorage`: encrypted at rest (AES-256-GCM in
/// `FileSecureStorage`, the keychain on Apple platforms), so the responses of a signed-in user, and the credentials
/// that tell users apart, never reach the disk in plain text. GirdersNetworking knows only the protocol; this file
/// is the whole bridge. At most `maximumEntries` responses, the oldest written going first.
final class EncryptedCacheStore: HTTPCacheStore {
    let storage: any SecureStorage
    let maximumEntries: Int
    private static let prefix = "http-cache:"

    /// What one item holds.
    private struct Entry: Codable {
        var url: String
        var partition: String
        var status: Int
        var headers: [[String]]
        var body: Data
        var requestTime: Double
        var responseTime: Double
        var varying: [String: String]
        var written: Double
    }

    init(storage: any SecureStorage, maximumEntries: Int = 200) {
        self.storage = storage
        self.maximumEntries = maximumEntries
    }

    /// The item name of `key`: the prefix and the URL and partition as JSON (any characters, one name per key).
    private static func name(_ key: CacheKey) -> String {
        let pair = (try? JSONEncoder().encode([key.url, key.partition])) ?? Data()
        return prefix + String(decoding: pair, as: UTF8.self)
    }

    private static func key(_ name: String) -> CacheKey? {
        guard name.hasPrefix(prefix),
            let pair = try? JSONDecoder().decode([String].self, from: Data(name.dropFirst(prefix.count).utf8)),
            pair.count == 2
        else { return nil }
        return CacheKey(url: pair[0], partition: pair[1])
    }

    func response(for key: CacheKey) -> CachedResponse? {
        guard let data = try? storage.readData(forKey: Self.name(key)),
            let entry = try? JSONDecoder().decode(Entry.self, from: data), let url = URL(string: entry.url),
            entry.url == key.url, entry.partition == key.partition
        else { return nil }
        return CachedResponse(
            statusCode: entry.status,
            headers: HTTPHeaders(
                entry.headers.compactMap { $0.count == 2 ? HTTPHeader(name: $0[0], value: $0[1]) : nil }),
            body: entry.body, url: url, requestTime: Date(timeIntervalSince1970: entry.requestTime),
            responseTime: Date(timeIntervalSince1970: entry.responseTime), varying: entry.varying)
    }

    func store(_ response: CachedResponse, for key: CacheKey) {
        let entry = Entry(
            url: key.url, partition: key.partition, status: response.statusCode,
            headers: response.headers.fields.map { [$0.name, $0.value] }, body: response.body,
            requestTime: response.requestTime.timeIntervalSince1970,
            responseTime: response.responseTime.timeIntervalSince1970, varying: response.varying,
            written: Date().timeIntervalSince1970)
        guard let data = try? JSONEncoder().encode(entry) else { return }
        try? storage.writeData(data, forKey: Self.name(key))
        evictBeyondTheBound()
    }

    func removeResponse(for key: CacheKey) {
        try? storage.deleteData(forKey: Self.name(key))
    }

    func removeResponses(for url: String) {
        for name in names() where Self.key(name)?.url == url { try? storage.deleteData(forKey: name) }
    }

    func removeAll() {
        for name in names() { try? storage.deleteData(forKey: name) }
    }

    /// The names of this store's items (the storage may hold others).
    func names() -> [String] {
        ((try? storage.allKeys()) ?? []).filter { $0.hasPrefix(Self.prefix) }
    }

    private func evictBeyondTheBound() {
        let names = names()
        guard names.count > maximumEntries else { return }
        let written = names.map { name -> (String, Double) in
            let data = try? storage.readData(forKey: name)
            return (name, data.flatMap { try? JSONDecoder().decode(Entry.self, from: $0) }?.written ?? 0)
        }
        for (name, _) in written.sorted(by: { $0.1 < $1.1 }).prefix(names.count - maximumEntries) {
            try? storage.deleteData(forKey: name)
        }
    }
}
