import Foundation
import GirdersHTTPCache
import GirdersNetworking

/// `TransferProbe cache-writer <folder> <seed> <generations>`: stores `generations` entries into a FileCacheStore at
/// `folder` (40 URLs, bodies of 1 to 200 KiB whose bytes follow from their URL and generation), reading one back now
/// and then, then writes `<folder>.done-<seed>` and sleeps until the test kills it (so a writer never keeps the
/// machine's cores busy longer than its share). Each body is `CacheWriterProbe.body(url:generation:length:)`, so the test can tell a
/// whole entry from a torn or mixed one.
enum CacheWriterProbe {
    static func run(folder: URL, seed: UInt64, generations: Int) -> Never {
        guard let store = try? FileCacheStore(folder: folder, maximumBytes: 4 << 20, maximumEntries: 30) else {
            FileHandle.standardError.write(Data("cannot open the store at \(folder.path)\n".utf8))
            exit(1)
        }
        var random = SplitMix(seed)
        var generation = 0
        while generation < generations {
            generation += 1
            let url = "https://example.com/item/\(random.next() % 40)"
            let length = Int(random.next() % 200_000) + 1
            let body = body(url: url, generation: generation, length: length)
            let time = Date(timeIntervalSince1970: 1_800_000_000)
            store.store(
                CachedResponse(
                    statusCode: 200,
                    headers: [
                        "X-Generation": String(generation), "X-Length": String(length), "Cache-Control": "max-age=60",
                    ],
                    body: body, url: URL(fileURLWithPath: "/"), requestTime: time, responseTime: time, varying: [:]),
                for: CacheKey(url: url, partition: "\u{0}"))
            if generation % 7 == 0 {
                _ = store.response(
                    for: CacheKey(url: "https://example.com/item/\(random.next() % 40)", partition: "\u{0}"))
            }
        }
        _ = FileManager.default.createFile(atPath: folder.path + ".done-\(seed)", contents: Data())
        while true { sleep(3600) }
    }

    /// The body of `url`'s entry number `generation`.
    static func body(url: String, generation: Int, length: Int) -> Data {
        let pattern = Array("\(url)#\(generation);".utf8)
        return Data((0..<length).map { pattern[$0 % pattern.count] })
    }

    /// A small deterministic generator (SplitMix64).
    struct SplitMix {
        var state: UInt64
        init(_ seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }
}
