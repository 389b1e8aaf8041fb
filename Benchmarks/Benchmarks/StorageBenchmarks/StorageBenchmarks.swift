// GirdersStorage's file store: reads and durable writes with 10 and 10,000 items of 1 KiB, and 1 MiB values
// against raw libcrypto AES-256-GCM.
import Benchmark
import CBenchOpenSSL
import Foundation
import GirdersStorage

/// A store with `count` items of 1 KiB in a fresh folder below `base`.
func makeStore(items count: Int, base: String) throws -> FileSecureStorage {
    let folder = URL(fileURLWithPath: base).appendingPathComponent("girders-bench-\(UUID().uuidString)")
    let storage = try FileSecureStorage(folder: folder, key: .raw(Data(repeating: 9, count: 32)))
    let value = Data(repeating: 0x42, count: 1024)
    for index in 0..<count { try storage.writeData(value, forKey: "item-\(index)") }
    return storage
}

/// One AES-256-GCM encryption of `plaintext` with libcrypto's EVP interface: the baseline.
func rawSeal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], into ciphertext: inout [UInt8], tag: inout [UInt8]) {
    guard let context = EVP_CIPHER_CTX_new() else { return }
    defer { EVP_CIPHER_CTX_free(context) }
    var length: Int32 = 0
    EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce)
    EVP_EncryptUpdate(context, &ciphertext, &length, plaintext, Int32(plaintext.count))
    let written = Int(length)
    ciphertext.withUnsafeMutableBufferPointer { buffer in
        _ = EVP_EncryptFinal_ex(context, buffer.baseAddress.map { $0 + written }, &length)
    }
    EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, &tag)
}

/// The same steps as the store's durable write, without encryption: temporary file, write, fsync, rename, fsync
/// of the folder.
func plainDurableWrite(_ bytes: [UInt8], folder: String) {
    let temporary = folder + "/.plain.tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    fsync(descriptor)
    close(descriptor)
    rename(temporary, folder + "/plain")
    let directory = open(folder, O_RDONLY)
    fsync(directory)
    close(directory)
}

/// A value computed on first use, shared by a benchmark's runs.
final class Lazy<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?
    private let make: () throws -> Value

    init(_ make: @escaping () throws -> Value) {
        self.make = make
    }

    func value() throws -> Value {
        try lock.withLock {
            if let stored { return stored }
            let made = try make()
            stored = made
            return made
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    let fast = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 10, scalingFactor: .one, maxDuration: .seconds(3),
        maxIterations: 5_000)
    let disk = FileManager.default.temporaryDirectory.path
    let memory = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : disk

    for count in [10, 10_000] {
        // Filled once per process (10,000 durable writes take seconds), outside the measurements.
        let store = Lazy { try makeStore(items: count, base: disk) }
        Benchmark("Read a 1 KiB item, \(count) items stored", configuration: fast) { benchmark in
            let storage = try store.value()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try storage.readData(forKey: "item-\(count / 2)")) }
        }
        Benchmark("Durable write of a 1 KiB item, \(count) items stored", configuration: fast) { benchmark in
            let storage = try store.value()
            let value = Data(repeating: 0x17, count: 1024)
            benchmark.startMeasurement()
            for iteration in benchmark.scaledIterations {
                try storage.writeData(value, forKey: "item-\(iteration % count)")
            }
        }
    }

    let big = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    Benchmark("Write a 1 MiB value (store on \(memory))", configuration: fast) { benchmark in
        let storage = try makeStore(items: 0, base: memory)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try storage.writeData(big, forKey: "big") }
    }
    Benchmark("Plain durable write of 1 MiB, no encryption (on \(memory))", configuration: fast) { benchmark in
        let folder = URL(fileURLWithPath: memory).appendingPathComponent("girders-plain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let bytes = Array(big)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { plainDurableWrite(bytes, folder: folder.path) }
    }
    Benchmark("Raw libcrypto AES-256-GCM of 1 MiB", configuration: fast) { benchmark in
        let plaintext = Array(big)
        let key = [UInt8](repeating: 9, count: 32)
        let nonce = [UInt8](repeating: 1, count: 12)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + 16)
        var tag = [UInt8](repeating: 0, count: 16)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { rawSeal(plaintext, key: key, nonce: nonce, into: &ciphertext, tag: &tag) }
    }
    Benchmark("Read a 1 MiB value (store on \(memory))", configuration: fast) { benchmark in
        let storage = try makeStore(items: 0, base: memory)
        try storage.writeData(big, forKey: "big")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try storage.readData(forKey: "big")) }
    }
}
