import Foundation
import GirdersTestServers
import Testing

@testable import GirdersHTTPCache
@testable import GirdersNetworking

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// FileCacheStore: entries on disk that outlive the store, bounded, least recently used first, and every hostile or
/// damaged file a miss that is deleted.
struct FileCacheStoreTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000)

    func response(_ body: String, headers: HTTPHeaders = ["Cache-Control": "max-age=60"]) -> CachedResponse {
        CachedResponse(
            statusCode: 200, headers: headers, body: Data(body.utf8),
            url: URL(fileURLWithPath: "/"), requestTime: time, responseTime: time.addingTimeInterval(1),
            varying: ["accept-language": "fr"])
    }

    func key(_ name: String, partition: String = "\u{0}") -> CacheKey {
        CacheKey(url: "https://example.com/\(name)", partition: partition)
    }

    /// Sets the file's last use to `seconds` since 1970.
    func setUsed(_ path: String, _ seconds: Int) {
        var times = [timeval(tv_sec: seconds, tv_usec: 0), timeval(tv_sec: seconds, tv_usec: 0)]
        _ = utimes(path, &times)
    }

    @Test func aStoredResponseRoundTripsThroughJSONForAStoreOfAnAppsOwn() throws {
        var headers = HTTPHeaders()
        headers.add(name: "Set-Thing", value: "1")
        headers.add(name: "set-thing", value: "2")
        let stored = response("body", headers: headers)
        let read = try JSONDecoder().decode(CachedResponse.self, from: try JSONEncoder().encode(stored))
        #expect(read == stored)
        #expect(read.headers.fields.map(\.value) == ["1", "2"], "repeated names kept in order")
        let broken = Data(
            #"{"statusCode":200,"headers":[["only-a-name"]],"body":"","url":"https://x","requestTime":0,"responseTime":0,"varying":{}}"#
                .utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CachedResponse.self, from: broken) }
    }

    @Test func anEntryOutlivesTheStoreThatWroteIt() throws {
        let folder = try temporaryFolder()
        try FileCacheStore(folder: folder).store(
            response("kept", headers: ["ETag": "\"a\"", "X-A": "1"]), for: key("a"))
        let reopened = try FileCacheStore(folder: folder)
        let read = try #require(reopened.response(for: key("a")))
        let written = response("kept", headers: ["ETag": "\"a\"", "X-A": "1"])
        #expect(read.headers == written.headers && read.body == written.body && read.statusCode == 200)
        #expect(read.requestTime == written.requestTime && read.responseTime == written.responseTime)
        #expect(read.varying == written.varying)
        #expect(read.url.absoluteString == key("a").url)  // the URL is the key's
        #expect(reopened.count == 1)
        #expect(reopened.response(for: key("b")) == nil)
    }

    @Test func theLeastRecentlyUsedEntryGoesFirstWhenTheEntryBoundIsPassed() throws {
        let folder = try temporaryFolder()
        let store = try FileCacheStore(folder: folder, maximumEntries: 3)
        for (index, name) in ["a", "b", "c"].enumerated() {
            store.store(response(name), for: key(name))
            setUsed(store.entryPath(key(name)), 1_000 * (index + 1))
        }
        #expect(store.response(for: key("a")) != nil)  // a is now the most recently used
        store.store(response("d"), for: key("d"))
        #expect(store.response(for: key("b")) == nil)
        #expect(store.response(for: key("a")) != nil)
        #expect(store.response(for: key("c")) != nil)
        #expect(store.response(for: key("d")) != nil)
        #expect(store.count == 3)
    }

    @Test func theByteBoundHoldsAndAnEntryLargerThanItIsNotKept() throws {
        let folder = try temporaryFolder()
        let store = try FileCacheStore(folder: folder, maximumBytes: 3_000)
        for index in 0..<10 {
            store.store(response(String(repeating: "x", count: 500)), for: key("e\(index)"))
        }
        let onDisk = CacheFiles.entries(in: folder.path, abandonedAfter: 60).reduce(0) { $0 + $1.size }
        #expect(onDisk <= 3_000)
        #expect(store.response(for: key("e9")) != nil)
        store.store(response(String(repeating: "y", count: 5_000)), for: key("big"))
        #expect(store.response(for: key("big")) == nil)
    }

    @Test(arguments: ["flip", "truncate", "garbage", "empty", "lying length"])
    func aDamagedEntryIsAMissAndIsDeleted(_ damage: String) throws {
        let folder = try temporaryFolder()
        let store = try FileCacheStore(folder: folder)
        store.store(response("whole body"), for: key("a"))
        let path = store.entryPath(key("a"))
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        switch damage {
        case "flip": bytes[bytes.count - 3] ^= 0x20
        case "truncate": bytes.removeLast(4)
        case "garbage": bytes = Array(repeating: 0x41, count: 300)
        case "empty": bytes = []
        default:
            // A header count of 2^32 - 1 with a checksum that matches: the reader must not believe it.
            var content = Array(bytes[(CacheEntryFile.magic.count + 8)...])
            let countOffset = 4 + key("a").url.utf8.count + 4 + 1 + 2 + 16
            for index in 0..<4 { content[countOffset + index] = 0xFF }
            let checksum = CacheEntryFile.checksum(content)
            bytes =
                CacheEntryFile.magic + (0..<8).map { UInt8(truncatingIfNeeded: checksum >> (8 * UInt64($0))) } + content
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(store.response(for: key("a")) == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try FileCacheStore(folder: folder).count == 0)
    }

    @Test func aLinkPlantedWhereAnEntryBelongsIsNeitherReadNorWrittenThrough() throws {
        let folder = try temporaryFolder()
        let outside = try temporaryFolder().appendingPathComponent("outside.txt")
        try Data("do not touch".utf8).write(to: outside)
        let store = try FileCacheStore(folder: folder)
        store.store(response("real"), for: key("a"))
        let path = store.entryPath(key("a"))
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: outside.path)
        #expect(store.response(for: key("a")) == nil)
        store.store(response("new"), for: key("a"))
        #expect(try String(contentsOf: outside, encoding: .utf8) == "do not touch")
        #expect(store.response(for: key("a"))?.body == Data("new".utf8))
    }

    @Test func aLinkPlantedWhereAnEntrysFolderBelongsIsNotWrittenThrough() throws {
        let folder = try temporaryFolder()
        let outside = try temporaryFolder()
        let store = try FileCacheStore(folder: folder)
        let urlFolder = (store.entryPath(key("a")) as NSString).deletingLastPathComponent
        try FileManager.default.createSymbolicLink(atPath: urlFolder, withDestinationPath: outside.path)
        store.store(response("x"), for: key("a"))
        #expect(try fileNames(in: outside).isEmpty)
        #expect(store.response(for: key("a"))?.body == Data("x".utf8))
    }

    @Test func aFileLargerThanTheStoreIsNeverRead() throws {
        let folder = try temporaryFolder()
        let store = try FileCacheStore(folder: folder, maximumBytes: 1_000)
        store.store(response("x"), for: key("a"))
        try Data(count: 50_000).write(to: URL(fileURLWithPath: store.entryPath(key("a"))))
        #expect(store.response(for: key("a")) == nil)
    }

    @Test func responsesToRequestsWithCredentialsAreKeptOnlyWhenAsked() throws {
        let credentialed = key("me", partition: "Bearer secret\u{0}")
        let plain = try FileCacheStore(folder: try temporaryFolder())
        plain.store(response("mine"), for: credentialed)
        #expect(plain.response(for: credentialed) == nil)
        #expect(plain.count == 0)
        let opted = try FileCacheStore(folder: try temporaryFolder(), keepsCredentialedResponses: true)
        opted.store(response("mine"), for: credentialed)
        #expect(opted.response(for: credentialed) != nil)
        #expect(opted.response(for: key("me", partition: "Bearer other\u{0}")) == nil)
    }

    @Test func removingAURLRemovesEveryPartitionAndRemoveAllEmptiesTheStore() throws {
        let folder = try temporaryFolder()
        let store = try FileCacheStore(folder: folder, keepsCredentialedResponses: true)
        store.store(response("1"), for: key("a"))
        store.store(response("2"), for: key("a", partition: "Bearer x\u{0}"))
        store.store(response("3"), for: key("b"))
        store.removeResponses(for: key("a").url)
        #expect(store.response(for: key("a")) == nil)
        #expect(store.response(for: key("a", partition: "Bearer x\u{0}")) == nil)
        #expect(store.response(for: key("b")) != nil)
        store.removeAll()
        #expect(store.response(for: key("b")) == nil)
        #expect(try fileNames(in: folder).isEmpty)
    }

    @Test func filesThatAreNotTheStoresOwnAreLeftAlone() throws {
        let folder = try temporaryFolder()
        try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let store = try FileCacheStore(folder: folder, maximumEntries: 1)
        store.store(response("1"), for: key("a"))
        store.store(response("2"), for: key("b"))
        #expect(try fileNames(in: folder).contains("notes.txt"))
    }
}

#if os(Linux)
/// The store a CachingTransport gets when it names none.
struct DefaultCacheStoreTests {
    @Test func theDefaultStoreIsOnDiskInTheUsersCachesFolder() throws {
        let home = try temporaryFolder()
        let folder = FileCacheStore.folder(in: ["XDG_CACHE_HOME": home.path])
        #expect(folder.path == home.appendingPathComponent("Girders/HTTPCache").path)
        #expect(CachingTransport.store(in: folder) is FileCacheStore)
    }

    @Test func aCachesFolderThatCannotBeMadeFallsBackToMemory() throws {
        let file = try temporaryFolder().appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        #expect(
            CachingTransport.store(in: FileCacheStore.folder(in: ["XDG_CACHE_HOME": file.path])) is MemoryCacheStore)
    }
}
#endif
