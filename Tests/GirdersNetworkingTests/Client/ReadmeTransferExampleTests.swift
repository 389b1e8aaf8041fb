#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// The README's transfer and error-handler examples, run against the loopback server.
struct ReadmeTransferExampleTests {
    let server: LoopbackServer
    let client = makeClient()

    init() throws {
        server = try LoopbackServer.get()
    }

    // --- README function begins ---
    /// GirdersSwift's `standardErrorHandler`: log in again silently on 401, hand every other error on.
    func standardErrorHandler(
        _ handler: @escaping @Sendable (ResponseError) -> Void, logIn: @escaping @Sendable () async -> Void
    ) -> @Sendable (ResponseError) -> Void {
        { error in
            if case .unauthorized = error { Task { await logIn() } } else { handler(error) }
        }
    }
    // --- README function ends ---

    @Test func theReadmeUploadAndDownloadExampleRuns() async throws {
        let folder = try temporaryFolder()
        let videoURL = folder.appendingPathComponent("holiday.mp4")
        try await writePatternFile(videoURL, megabytes: 1)
        let uploadURL = server.url("/multipart")
        let destination = folder.appendingPathComponent("copy.bin")
        let fractions = LockedList<Double>()

        var form = MultipartFormData()
        form.append("Holiday", name: "title")
        form.append(fileAt: videoURL, name: "video", contentType: "video/mp4")  // stays on disk
        let upload = Request(MutableRequest(method: .post, url: uploadURL) |> withMultipartBody(form))
        let reply = try await client.upload(upload) { progress in fractions.append(progress.fractionCompleted ?? 0) }

        let steps = LockedList<Int64>()
        let response = try await client.download(
            Request(URL: server.url("/bytes?n=100000"), method: .get), to: destination
        ) {
            step in steps.append(step.completedBytes)
        }  // response.fileURL == destination

        let parts = try JSONDecoder().decode([ReceivedPart].self, from: reply.body)
        #expect(parts.map(\.filename) == [nil, "holiday.mp4"])
        #expect(fractions.values.last == 1)
        #expect(!steps.values.isEmpty && response.fileURL == destination && fileSize(destination) == 100_000)
    }

    @Test func theReadmeStandardErrorHandlerLogsInAgainOn401AndPassesOtherErrorsOn() async throws {
        let shown = LockedList<Int>()
        let logins = LockedList<Bool>()
        let queue = DispatchQueue(label: "readme.errors")
        let handler = standardErrorHandler(
            { error in shown.append(error.statusCode ?? 0) }, logIn: { logins.append(true) })
        for path in ["/protected?realm=readme&good=never", "/status/500"] {
            let done = LockedList<Bool>()
            client.task(Request(URL: server.url(path), method: .get), as: Data.self, queue: queue)
                .onError(handler)
                .finally { done.append(true) }
            try await waitUntil { !done.values.isEmpty }
        }
        try await waitUntil { !logins.values.isEmpty }
        #expect(shown.values == [500])
        #expect(logins.values == [true])
    }
}
#endif
