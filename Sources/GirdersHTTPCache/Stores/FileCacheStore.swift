public import Foundation
import GirdersNetworking
import GirdersSupport

/// An ``HTTPCacheStore`` on disk, so an app answers from its cache after a restart and while offline.
///
/// ```swift
/// let store = try FileCacheStore(folder: FileCacheStore.defaultFolder, maximumBytes: 100 << 20)
/// let client = HTTPClient(transport: CachingTransport(URLSessionTransport(), store: store))
/// ```
///
/// - **Where**: one file per response in `folder` (a folder per URL, named by a hash of it), mode 0600 in folders of
///   mode 0700. ``defaultFolder`` is in the user's caches folder (`Library/Caches` on Apple platforms,
///   `$XDG_CACHE_HOME` or `~/.cache` on Linux), which the system may empty.
/// - **How big**: at most ``maximumBytes`` (entry files) and ``maximumEntries``; the least recently used go first.
///   Each process counts what it wrote and rescans the folder when over a bound or every 64 writes, so a second
///   process's writes are seen at the next scan.
/// - **Crash-safe**: an entry is written to a temporary file and renamed into place, so after a kill at any moment
///   it is whole or absent; a checksum catches one torn by a power loss. Temporary files a killed writer left are
///   removed at the next scan once a minute old.
/// - **Hostile files**: an entry that is damaged, truncated, changed or planted (a symbolic link, a file too big, a
///   length that points past the end) is a miss and is deleted, never a crash.
/// - **Credentials**: a response to a request with `Authorization` or `Cookie` is kept only when
///   `keepsCredentialedResponses` is `true`, because its file then holds those values (to tell users apart). Plug
///   in an encrypted store for those (see the example app's, on GirdersStorage).
/// - **Clearing**: ``removeAll()``, or delete the folder.
public final class FileCacheStore: HTTPCacheStore {
    /// Where the entries are.
    public let folder: URL
    /// The most bytes of entry files kept.
    public let maximumBytes: Int
    /// The most entries kept.
    public let maximumEntries: Int
    /// Whether responses to requests with credentials are kept (their files hold the credentials).
    public let keepsCredentialedResponses: Bool

    private struct Totals {
        var bytes = 0
        var entries = 0
        var writesSinceScan = 0
    }

    private let totals = LockedState(Totals())
    /// A scan every this many writes, to see what other processes wrote.
    static let writesBetweenScans = 64
    /// Temporary files older than this are a killed writer's.
    static let abandonedAfter: TimeInterval = 60

    /// `Girders/HTTPCache` in the user's caches folder: `Library/Caches` on Apple platforms, `$XDG_CACHE_HOME` or
    /// `~/.cache` on Linux.
    public static var defaultFolder: URL {
        folder(in: ProcessInfo.processInfo.environment)
    }

    /// ``defaultFolder`` for `environment` (`XDG_CACHE_HOME` first, where it is set; then the system's caches folder).
    static func folder(in environment: [String: String]) -> URL {
        let base =
            environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return base.appendingPathComponent("Girders/HTTPCache")
    }

    /// A store in `folder` (made, mode 0700, when missing), of at most `maximumBytes` and `maximumEntries`. Throws
    /// when the folder cannot be made or is not a folder.
    public init(
        folder: URL, maximumBytes: Int = 64 << 20, maximumEntries: Int = 2_000, keepsCredentialedResponses: Bool = false
    ) throws {
        self.folder = folder.standardizedFileURL
        self.maximumBytes = max(0, maximumBytes)
        self.maximumEntries = max(0, maximumEntries)
        self.keepsCredentialedResponses = keepsCredentialedResponses
        try FileManager.default.createDirectory(
            at: self.folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: self.folder.path, isDirectory: &isFolder), isFolder.boolValue
        else {
            throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: self.folder.path])
        }
        scan()
    }

    /// The number of entries, as this process last counted them.
    public var count: Int { totals.withLock { $0.entries } }

    /// The response stored for `key` (marked as just used), or `nil`.
    public func response(for key: CacheKey) -> CachedResponse? {
        guard keeps(key) else { return nil }
        let path = entryPath(key)
        guard let bytes = CacheFiles.read(path, limit: maximumBytes) else { return nil }
        switch CacheEntryFile.decode(bytes) {
        case .success(let (storedKey, response)) where storedKey == key:
            CacheFiles.touch(path)
            return response
        case .success:
            return nil  // another key with the same hash: a miss (the next store replaces it)
        case .failure:
            forget(path)
            return nil
        }
    }

    /// Stores `response` for `key`, then evicts the least recently used while a bound is passed.
    public func store(_ response: CachedResponse, for key: CacheKey) {
        guard keeps(key) else { return }
        let bytes = CacheEntryFile.encode(response, key: key)
        guard bytes.count <= maximumBytes, maximumEntries > 0 else { return removeResponse(for: key) }
        let path = entryPath(key)
        let replaced = CacheFiles.size(path)
        guard CacheFiles.write(bytes, to: path) else { return }
        let needsScan = totals.withLock { totals in
            totals.bytes += bytes.count - (replaced ?? 0)
            totals.entries += replaced == nil ? 1 : 0
            totals.writesSinceScan += 1
            return totals.bytes > maximumBytes || totals.entries > maximumEntries
                || totals.writesSinceScan >= Self.writesBetweenScans
        }
        if needsScan { scan() }
    }

    /// Forgets the response stored for `key`.
    public func removeResponse(for key: CacheKey) {
        forget(entryPath(key))
    }

    /// Forgets the responses stored for `url`, under every partition.
    public func removeResponses(for url: String) {
        let urlFolder = folder.appendingPathComponent(Self.name(url)).path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: urlFolder)) ?? [] {
            forget(urlFolder + "/" + name)
        }
        rmdir(urlFolder)
    }

    /// Forgets every response: the store's own files in ``folder`` (anything else there stays).
    public func removeAll() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where CacheFiles.isStoreName(name) {
            try? FileManager.default.removeItem(atPath: folder.appendingPathComponent(name).path)
        }
        totals.withLock { $0 = Totals() }
    }

    /// Whether `key` may be kept here.
    private func keeps(_ key: CacheKey) -> Bool {
        keepsCredentialedResponses || key.partition.allSatisfy { $0 == "\u{0}" }
    }

    /// `folder/<hash of the URL>/<hash of the partition>.entry`.
    func entryPath(_ key: CacheKey) -> String {
        folder.appendingPathComponent(Self.name(key.url)).appendingPathComponent(Self.name(key.partition) + ".entry")
            .path
    }

    /// 32 hexadecimal digits: two FNV-1a hashes with different seeds (a file name, not a secret).
    static func name(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let first = CacheEntryFile.checksum(bytes)
        let second = CacheEntryFile.checksum(bytes, seed: 0x6c62_272e_07bb_0142)
        return hex(first) + hex(second)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Deletes the entry at `path` and forgets its size.
    private func forget(_ path: String) {
        guard let size = CacheFiles.size(path), unlink(path) == 0 else { return }
        totals.withLock { totals in
            totals.bytes = max(0, totals.bytes - size)
            totals.entries = max(0, totals.entries - 1)
        }
        rmdir((path as NSString).deletingLastPathComponent)  // only when it is empty
    }

    /// Counts the entries on disk, removes abandoned temporary files and anything that is no entry, and evicts the
    /// least recently used until both bounds hold.
    private func scan() {
        var entries = CacheFiles.entries(in: folder.path, abandonedAfter: Self.abandonedAfter)
        var bytes = entries.reduce(0) { $0 + $1.size }
        if bytes > maximumBytes || entries.count > maximumEntries {
            entries.sort { $0.used < $1.used }
            var kept = entries.count
            for entry in entries where bytes > maximumBytes || kept > maximumEntries {
                if unlink(entry.path) == 0 || errno == ENOENT {
                    bytes -= entry.size
                    kept -= 1
                    rmdir((entry.path as NSString).deletingLastPathComponent)
                }
            }
            entries.removeFirst(entries.count - kept)
        }
        totals.withLock { $0 = Totals(bytes: bytes, entries: entries.count, writesSinceScan: 0) }
    }
}
