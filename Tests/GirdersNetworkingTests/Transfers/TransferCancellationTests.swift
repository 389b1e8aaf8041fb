#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// Every kind of transfer cancelled at random moments: exactly one terminal callback each time, never `onError`,
/// and no partial download left behind.
struct TransferCancellationTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    enum Kind: CaseIterable { case data, upload, multipart, download }

    /// What the handlers of one round saw.
    struct Callbacks: Sendable {
        let terminal = LockedList<String>()
        let finally = LockedList<Bool>()
        /// The handlers' queue.
        let queue = DispatchQueue(label: "girders.tests.cancellation")
    }

    @available(*, deprecated, message: "exercises the deprecated FluentTask transfer forms")
    @Test func cancellingEachKindOfTransferAtRandomMomentsEndsWithExactlyOneTerminalCallback() async throws {
        let client = makeClient()
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent("payload.bin")
        try await writePatternFile(file, megabytes: 2)
        let downloads = folder.appendingPathComponent("downloads")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        var outcomes: [String: Int] = [:]
        for round in 0..<100 {
            let kind = Kind.allCases[round % Kind.allCases.count]
            let callbacks = Callbacks()
            let cancel = start(kind, client: client, file: file, downloads: downloads, callbacks: callbacks)
            try await Task.sleep(for: .microseconds(Int.random(in: 0...20_000)))
            cancel()
            try await waitUntil { !callbacks.finally.values.isEmpty }
            await callbacks.queue.drained()  // a second callback, had one been scheduled, would have run by now
            let terminal = callbacks.terminal.values
            #expect(terminal.count == 1, "round \(round) (\(kind)): \(terminal)")
            #expect(callbacks.finally.values.count == 1, "round \(round) (\(kind))")
            #expect(!terminal.contains { $0.hasPrefix("error") }, "round \(round) (\(kind)): \(terminal)")
            outcomes[terminal.first ?? "none", default: 0] += 1
        }
        #expect(try fileNames(in: downloads).allSatisfy { !$0.hasSuffix(".girders-part") })
        #expect(outcomes["cancel", default: 0] > 0)
    }

    /// Starts a transfer of `kind` with handlers recording into `callbacks`; returns its cancel function.
    @available(*, deprecated, message: "exercises the deprecated FluentTask transfer forms")
    private func start(
        _ kind: Kind, client: HTTPClient, file: URL, downloads: URL, callbacks: Callbacks
    ) -> @Sendable () -> Void {
        let queue = callbacks.queue
        switch kind {
        case .data:
            let request = Request(URL: server.url("/bytes?n=2000000"), method: .get)
            return wire(client.task(request, as: Data.self, queue: queue), callbacks)
        case .upload:
            let request = Request(MutableRequest(method: .post, url: server.url("/sink")) |> withBodyFile(file))
            return wire(client.task(uploading: request, as: Data.self, queue: queue), callbacks)
        case .multipart:
            var form = MultipartFormData()
            form.append("cancel me", name: "title")
            form.append(fileAt: file, name: "file")
            let request = Request(
                MutableRequest(method: .post, url: server.url("/multipart")) |> withMultipartBody(form))
            return wire(client.task(uploading: request, as: Data.self, queue: queue), callbacks)
        case .download:
            let request = Request(URL: server.url("/bytes?n=2000000"), method: .get)
            let destination = downloads.appendingPathComponent("\(UUID().uuidString).bin")
            return wire(client.task(downloading: request, to: destination, queue: queue), callbacks)
        }
    }

    private func wire<Value: Sendable>(_ task: FluentTask<Value>, _ callbacks: Callbacks) -> @Sendable () -> Void {
        task.onCompletion { _ in callbacks.terminal.append("completion") }
            .onError { error in callbacks.terminal.append("error: \(error)") }
            .onCancel { callbacks.terminal.append("cancel") }
            .finally { callbacks.finally.append(true) }
        return { task.cancel() }
    }
}
#endif
