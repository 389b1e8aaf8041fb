#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import GirdersNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Uploads from memory and from disk, multipart forms, downloads to files, progress.
struct TransferTests {
    let server: LoopbackServer
    let client = makeClient()

    init() throws {
        server = try LoopbackServer.get()
    }

    @Test func anUploadFromMemoryReportsProgressUpToItsSizeAndArrivesIntact() async throws {
        let data = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let steps = LockedList<TransferProgress>()
        let request = Request(MutableRequest(method: .post, url: server.url("/sink")) |> withBody(data))
        let response = try await client.upload(request) { steps.append($0) }
        let report = try JSONDecoder().decode(SinkReport.self, from: response.body)
        #expect(report.length == data.count)
        let expectedHash = try await sha256(data)
        #expect(report.sha256 == expectedHash)
        let uploads = steps.values.filter { $0.direction == .upload }
        #expect(uploads.last?.completedBytes == Int64(data.count))
        #expect(uploads.last?.fractionCompleted == 1)
        #expect(uploads.map(\.completedBytes) == uploads.map(\.completedBytes).sorted())
    }

    @Test func aFileBodyIsStreamedFromDiskAndArrivesIntact() async throws {
        let file = try temporaryFolder().appendingPathComponent("upload.bin")
        try await writePatternFile(file, megabytes: 8)
        let steps = LockedList<TransferProgress>()
        let request = Request(
            MutableRequest(method: .put, url: server.url("/sink")) |> withBodyFile(file, contentType: "video/mp4"))
        let response = try await client.upload(request) { steps.append($0) }
        let report = try JSONDecoder().decode(SinkReport.self, from: response.body)
        #expect(report.length == 8 << 20)
        let expectedHash = try await sha256OfFile(file)
        #expect(report.sha256 == expectedHash)
        #expect(steps.values.last { $0.direction == .upload }?.totalBytes == Int64(8 << 20))
    }

    @Test func aMissingUploadFileFailsNamingTheFileBeforeAnythingIsSent() async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/girders-upload.bin")
        let request = Request(MutableRequest(method: .post, url: server.url("/sink")) |> withBodyFile(missing))
        let error = await responseError { _ = try await client.upload(request) }
        #expect(error == .fileError(path: missing.path, reason: "not a readable regular file"))
    }

    @Test func aMultipartFormWithFieldsDataAndAFileArrivesPartByPart() async throws {
        let file = try temporaryFolder().appendingPathComponent("report.pdf")
        try await writePatternFile(file, megabytes: 2)
        var form = MultipartFormData()
        form.append("Grüezi \"Girders\"", name: "title")
        form.append(Data("{\"a\":1}".utf8), name: "meta", filename: "meta.json", contentType: "application/json")
        form.append(fileAt: file, name: "document", contentType: "application/pdf")
        let request = Request(MutableRequest(method: .post, url: server.url("/multipart")) |> withMultipartBody(form))
        #expect(request.bodySource == .multipart(form))
        #expect(request.headers["Content-Type"] == form.contentType)
        let response: Response<[ReceivedPart]> = try await client.executeRequest(request: request)
        let parts = try #require(response.bodyObject)
        #expect(parts.map(\.name) == ["title", "meta", "document"])
        #expect(parts[0].text == "Grüezi \"Girders\"" && parts[0].filename == nil)
        #expect(parts[1].filename == "meta.json" && parts[1].content_type == "application/json")
        #expect(parts[1].text == "{\"a\":1}")
        #expect(parts[2].filename == "report.pdf" && parts[2].content_type == "application/pdf")
        let expectedHash = try await sha256OfFile(file)
        #expect(parts[2].length == 2 << 20 && parts[2].sha256 == expectedHash)
        let encoded = try form.encodedData()
        #expect(form.encodedLength == Int64(encoded.count))
    }

    @Test func aHostileFileNameCannotInjectHeadersIntoTheForm() async throws {
        var form = MultipartFormData()
        form.append(
            Data("x".utf8), name: "na\"me", filename: "evil.txt\"\r\nContent-Type: text/html\r\n\r\nowned",
            contentType: "text/plain")
        let request = Request(MutableRequest(method: .post, url: server.url("/multipart")) |> withMultipartBody(form))
        #expect(request.bodySource == nil)  // no files: encoded in memory
        let response: Response<[ReceivedPart]> = try await client.executeRequest(request: request)
        let parts = try #require(response.bodyObject)
        #expect(parts.count == 1)
        #expect(parts.first?.name == "na%22me")
        #expect(parts.first?.filename == "evil.txt%22%0D%0AContent-Type: text/html%0D%0A%0D%0Aowned")
        #expect(parts.first?.content_type == "text/plain" && parts.first?.text == "x")
    }

    @Test func aDownloadLandsAtTheDestinationWithProgressAndLeavesNothingElse() async throws {
        let folder = try temporaryFolder()
        let destination = folder.appendingPathComponent("movie.bin")
        let steps = LockedList<TransferProgress>()
        let request = Request(URL: server.url("/bytes?n=5000000"), method: .get)
        let response = try await client.download(request, to: destination) { steps.append($0) }
        #expect(response.fileURL == destination && response.body.isEmpty)
        #expect(fileSize(destination) == 5_000_000)
        #expect(try fileNames(in: folder) == ["movie.bin"])
        let received = try Data(contentsOf: destination)
        #expect(received.prefix(512) == Data((0..<512).map { UInt8($0 % 256) }))
        #expect(
            steps.values.last
                == TransferProgress(direction: .download, completedBytes: 5_000_000, totalBytes: 5_000_000))
        #expect(steps.values.count > 1)
    }

    @Test func aFailedDownloadLeavesTheOldFileUntouchedAndNoPartialFile() async throws {
        let folder = try temporaryFolder()
        let destination = folder.appendingPathComponent("data.json")
        try Data("old".utf8).write(to: destination)
        let notFound = await responseError {
            _ = try await client.download(Request(URL: server.url("/status/404"), method: .get), to: destination)
        }
        #expect(notFound?.statusCode == 404)
        #expect(notFound?.response?.body.isEmpty == false)  // the error body stays readable
        let cutOff = await responseError {
            _ = try await client.download(
                Request(URL: server.url("/fault/short?n=200000"), method: .get), to: destination)
        }
        #expect(
            cutOff
                == .interrupted(
                    url: server.url("/fault/short?n=200000"), receivedBytes: 100_000,
                    expectedBytes: 200_000, reason: cutOffReason(cutOff)))
        #expect(try Data(contentsOf: destination) == Data("old".utf8))
        #expect(try fileNames(in: folder) == ["data.json"])
    }

    @Test func aSuccessfulDownloadReplacesAnExistingFile() async throws {
        let folder = try temporaryFolder()
        let destination = folder.appendingPathComponent("data.bin")
        try Data("old".utf8).write(to: destination)
        _ = try await client.download(Request(URL: server.url("/bytes?n=1000"), method: .get), to: destination)
        #expect(fileSize(destination) == 1000)
        #expect(try fileNames(in: folder) == ["data.bin"])
    }

    @Test func aDownloadIntoAMissingFolderFailsNamingThePath() async throws {
        let destination = URL(fileURLWithPath: "/nonexistent-girders-folder/file.bin")
        let error = await responseError {
            _ = try await client.download(Request(URL: server.url("/bytes?n=1000"), method: .get), to: destination)
        }
        guard case .fileError(let path, let reason) = error else {
            Issue.record("expected fileError, got \(String(describing: error))")
            return
        }
        #expect(path.hasPrefix("/nonexistent-girders-folder/.file.bin."))
        #expect(reason == "No such file or directory")
    }

    @Test func aTransportThatCannotStreamStillDownloadsAtomicallyThroughTheClient() async throws {
        let folder = try temporaryFolder()
        let destination = folder.appendingPathComponent("stubbed.json")
        let stubbed = HTTPClient(transport: StubTransport(responses: [.json(#"{"ok":true}"#)]))
        let steps = LockedList<TransferProgress>()
        let response = try await stubbed.download(
            Request(URL: server.url("/anything"), method: .get), to: destination
        ) { steps.append($0) }
        #expect(response.fileURL == destination)
        #expect(try Data(contentsOf: destination) == Data(#"{"ok":true}"#.utf8))
        #expect(steps.values == [TransferProgress(direction: .download, completedBytes: 11, totalBytes: 11)])
        #expect(try fileNames(in: folder) == ["stubbed.json"])
    }

    @available(*, deprecated, message: "exercises the deprecated Transfer forms")
    @Test func progressArrivesAsAnAsyncStreamThatEndsWithTheTransfer() async throws {
        let folder = try temporaryFolder()
        let destination = folder.appendingPathComponent("stream.bin")
        let transfer = client.downloadTransfer(
            Request(URL: server.url("/bytes?n=3000000"), method: .get), to: destination)
        var last: TransferProgress?
        var count = 0
        for await step in transfer.progress {
            last = step
            count += 1
        }
        let response = try await transfer.response
        #expect(response.fileURL == destination)
        #expect(count > 0)
        #expect(last?.completedBytes == 3_000_000 && last?.fractionCompleted == 1)
    }

    @available(*, deprecated, message: "exercises the deprecated Transfer forms")
    @Test func aCancelledDownloadTransferThrowsCancelledAndDeletesItsPartialFile() async throws {
        let folder = try temporaryFolder()
        let destination = folder.appendingPathComponent("slow.bin")
        // The body never ends while the connection is open, so the transfer cannot end before the cancel.
        let transfer = client.downloadTransfer(
            Request(URL: server.url("/drip?bytes=1000&interval_ms=20&hold=1"), method: .get), to: destination)
        for await step in transfer.progress where step.completedBytes >= 1 {
            transfer.cancel()
        }
        let error = await responseError { _ = try await transfer.response }
        #expect(error?.isCancellation == true)
        #expect(try fileNames(in: folder).isEmpty)
    }

    @available(*, deprecated, message: "exercises the deprecated Transfer forms")
    @Test func aUploadTransferStreamsProgressForAFile() async throws {
        let file = try temporaryFolder().appendingPathComponent("up.bin")
        try await writePatternFile(file, megabytes: 4)
        let transfer = client.uploadTransfer(
            Request(MutableRequest(method: .post, url: server.url("/sink")) |> withBodyFile(file)))
        var uploaded: Int64 = 0
        for await step in transfer.progress where step.direction == .upload { uploaded = step.completedBytes }
        let report = try JSONDecoder().decode(SinkReport.self, from: try await transfer.response.body)
        #expect(uploaded == 4 << 20 && report.length == 4 << 20)
    }

    @Test func anEditedURLRequestReachesTheServer() async throws {
        let request = Request(
            MutableRequest(url: server.url("/echo"))
                |> withURLRequestEdit { $0.setValue("edited", forHTTPHeaderField: "X-Edit") })
        let response: Response<Echo> = try await client.executeRequest(request: request)
        #expect(response.bodyObject?.header("X-Edit") == "edited")
    }

    @Test func aTypedRequestHasTheLastWordOnTheURLRequest() async throws {
        struct Edited: TypedRequest {
            typealias Success = Echo
            let request: Request
            func editRequest(_ request: inout URLRequest) {
                request.setValue("typed", forHTTPHeaderField: "X-Edit")
                request.httpMethod = "PUT"
            }
        }
        let echo = try await client.send(Edited(request: Request(URL: server.url("/echo"), method: .get)))
        #expect(echo.header("X-Edit") == "typed")
        #expect(echo.method == "PUT")
    }

    /// The transport's wording of a cut-off body, so the rest of the error can be compared exactly.
    private func cutOffReason(_ error: ResponseError?) -> String {
        if case .interrupted(_, _, _, let reason) = error { return reason }
        return "(not interrupted)"
    }
}
#endif
