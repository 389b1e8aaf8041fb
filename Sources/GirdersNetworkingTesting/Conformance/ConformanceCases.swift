import Foundation
import GirdersNetworking

/// The cases of ``TransportConformance``, in the order they run.
extension TransportConformance {
    static let cases: [Case] = [
        Case(name: "a GET arrives with its method, target and every field, repeated ones apart") { context in
            let request = Request(
                MutableRequest(url: context.server.url("/echo?a=1&b=two"))
                    |> withHeader("X-One", "1") |> withHeader("X-Empty", ""))
            var edited = MutableRequest(request)
            edited.headers.add(name: "X-Twice", value: "first")
            edited.headers.add(name: "X-Twice", value: "second")
            let echo = try await echoed(Request(edited), context)
            try expect(echo.method == "GET", "the method arrived as \(echo.method)")
            try expect(echo.target == "/echo?a=1&b=two", "the target arrived as \(echo.target)")
            try expect(echo.values("X-One") == ["1"], "X-One arrived as \(echo.values("X-One"))")
            try expect(echo.values("X-Empty") == [""], "an empty field arrived as \(echo.values("X-Empty"))")
            let twice = echo.values("X-Twice").flatMap {
                $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            try expect(twice == ["first", "second"], "a repeated field arrived as \(echo.values("X-Twice"))")
        },
        Case(name: "a body from memory arrives whole, with its method and length") { context in
            let body = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0) })
            let request = Request(
                MutableRequest(method: .put, url: context.server.url("/echo")) |> withBody(body, contentType: "a/b"))
            let echo = try await echoed(request, context)
            try expect(echo.method == "PUT", "the method arrived as \(echo.method)")
            try expect(echo.bodyData == body, "\(echo.bodyData.count) of \(body.count) bytes arrived, or others")
            try expect(echo.values("Content-Type") == ["a/b"], "Content-Type arrived as \(echo.values("Content-Type"))")
        },
        Case(name: "a file body arrives whole") { context in
            let file = context.folder.appendingPathComponent("upload-\(UUID().uuidString).bin")
            let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            try body.write(to: file)
            let request = Request(MutableRequest(method: .post, url: context.server.url("/echo")) |> withBodyFile(file))
            let echo = try await echoed(request, context)
            try expect(echo.bodyData == body, "\(echo.bodyData.count) of \(body.count) bytes arrived, or others")
        },
        Case(name: "multipart form data arrives as the form encodes it") { context in
            var form = MultipartFormData()
            form.append("girder", name: "title")
            form.append(Data(repeating: 7, count: 5_000), name: "blob", filename: "blob.bin", contentType: "x/y")
            let request = Request(
                MutableRequest(method: .post, url: context.server.url("/echo")) |> withMultipartBody(form))
            let echo = try await echoed(request, context)
            let expected = try form.encodedData()
            try expect(
                echo.bodyData == expected, "\(echo.bodyData.count) of \(expected.count) bytes arrived, or others")
            try expect(
                echo.values("Content-Type") == [form.contentType],
                "Content-Type arrived as \(echo.values("Content-Type"))")
        },
        Case(name: "a streamed body arrives whole, of a known length or not") { context in
            for length in [Int64(30_000), nil] {
                let chunks = (0..<30).map { Data(repeating: UInt8($0), count: 1_000) }
                let stream = BodyStream(length: length) {
                    AsyncStream { continuation in
                        for chunk in chunks { continuation.yield(chunk) }
                        continuation.finish()
                    }
                }
                let request = Request(
                    MutableRequest(method: .post, url: context.server.url("/echo")) |> withBodyStream(stream))
                let echo = try await echoed(request, context)
                try expect(
                    echo.bodyData == chunks.reduce(Data(), +),
                    "length \(length.map(String.init) ?? "unknown"): \(echo.bodyData.count) of 30000 bytes arrived")
            }
        },
        Case(name: "the status and the fields come back as sent, repeated ones together") { context in
            let response = try await context.client.perform(
                Request(MutableRequest(url: context.server.url("/repeat")) |> withAcceptableStatusCodes(Set(200..<600)))
            )
            try expect(response.statusCode == 200, "status \(response.statusCode)")
            let values = response.headers.values(for: "x-repeat").flatMap {
                $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            try expect(values == ["a", "b"], "X-Repeat came back as \(response.headers.values(for: "X-Repeat"))")
            try expect(response.body == Data("ok".utf8), "the body came back as \(response.body.count) bytes")
        },
        Case(name: "a redirect comes back to the client, unfollowed") { context in
            let response = try await context.transport.send(Request(URL: context.server.url("/redirect"), method: .get))
            try expect(response.statusCode == 302, "status \(response.statusCode): the transport followed it")
            try expect(
                response.headers["Location"] == "/echo",
                "Location came back as \(response.headers["Location"] ?? "nil")")
        },
        Case(name: "a HEAD and a 204 have no body") { context in
            let head = try await context.transport.send(Request(URL: context.server.url("/big?n=5000"), method: .head))
            try expect(
                head.statusCode == 200 && head.body.isEmpty, "HEAD: \(head.statusCode), \(head.body.count) bytes")
            let empty = try await context.transport.send(
                Request(URL: context.server.url("/status?code=204"), method: .get))
            try expect(empty.statusCode == 204 && empty.body.isEmpty, "204: \(empty.body.count) bytes")
        },
        Case(name: "a body past the response limit stops with limitExceeded") { context in
            let request = Request(
                MutableRequest(url: context.server.url("/big?n=2000000"))
                    |> withResponseLimits(ResponseLimits(bodyBytes: 100_000)))
            let error = await failure { _ = try await context.client.perform(request) }
            try expect(error?.kind == .limitExceeded, "ended with \(String(describing: error))")
        },
        Case(name: "a coding the transport asks for arrives decoded") { context in
            let response = try await context.client.perform(Request(URL: context.server.url("/gzip"), method: .get))
            let text = String(decoding: response.body, as: UTF8.self)
            try expect(text == plainGzipText, "the body came back as \(text.debugDescription)")
        },
        Case(name: "a streamed response arrives in order, as it is sent") { context in
            let streamed = try await context.client.stream(
                Request(URL: context.server.url("/chunks?n=20"), method: .get))
            var lines: [String] = []
            for try await line in streamed.body.lines { lines.append(line) }
            try expect(lines == (0..<20).map { "line \($0)" }, "the lines came as \(lines.prefix(5))...")
        },
        Case(name: "a body cut short is interrupted") { context in
            let error = await failure {
                _ = try await context.client.perform(Request(URL: context.server.url("/cut"), method: .get))
            }
            try expect(error?.kind == .interrupted, "ended with \(String(describing: error))")
        },
        Case(name: "a request slower than its timeout fails with timedOut") { context in
            let request = Request(MutableRequest(url: context.server.url("/slow?ms=3000")) |> withTimeout(0.5))
            let error = await failure { _ = try await context.client.perform(request) }
            try expect(error?.kind == .timedOut, "ended with \(String(describing: error))")
        },
        Case(name: "cancelling the calling task stops the transfer") { context in
            let name = UUID().uuidString
            let client = context.client
            let task = Task {
                try await client.perform(Request(URL: context.server.url("/hold?name=\(name)"), method: .get))
            }
            // The request is held by the server: the cancel lands mid-transfer (waiting for that, at most 30 s).
            let end = ContinuousClock.now + .seconds(30)
            while gates.arrivals(name) == 0, ContinuousClock.now < end { try await Task.sleep(nanoseconds: 1_000_000) }
            guard gates.arrivals(name) > 0 else {
                task.cancel()
                throw Failure(name: "", reason: "the request never reached the server")
            }
            task.cancel()
            let error = await failure { _ = try await task.value }
            gates.release(name)
            try expect(error?.isCancellation == true, "ended with \(String(describing: error))")
        },
        Case(name: "a refused connection is cannotConnect") { context in
            let port = try TestHTTPServer.refusedPort()
            guard let url = URL(string: "http://127.0.0.1:\(port)/") else { return try expect(false, "no URL") }
            let error = await failure { _ = try await context.client.perform(Request(URL: url, method: .get)) }
            try expect(error?.kind == .cannotConnect, "ended with \(String(describing: error))")
        },
        Case(name: "a request to switch protocols gets its 101 and the connection, read up to the server's close") {
            context in
            guard let url = URL(string: "http://127.0.0.1:\(context.server.port)/upgrade") else {
                return try expect(false, "no URL")
            }
            guard context.switchesProtocols else {
                let error = await failure { _ = try await context.client.upgrade(switching(url)) }
                return try expect(error?.kind == .unsupported, "ended with \(String(describing: error))")
            }
            let upgrade = try await context.client.upgrade(switching(url))
            var bytes = Data()
            while let more = try await upgrade.connection.read() { bytes.append(more) }
            await upgrade.connection.close()
            try expect(upgrade.response.statusCode == 101, "answered \(upgrade.response.statusCode)")
            try expect(
                bytes == Data("hello".utf8), "read \(bytes.count) bytes: \(String(decoding: bytes, as: UTF8.self))")
        },
        Case(name: "a refused request to switch protocols is its status's error") { context in
            guard let url = URL(string: "http://127.0.0.1:\(context.server.port)/upgrade?refuse=1") else {
                return try expect(false, "no URL")
            }
            let error = await failure { _ = try await context.client.upgrade(switching(url)) }
            // A transport that does not switch may still send it, or refuse it first.
            let expected = error?.statusCode == 403 || (!context.switchesProtocols && error?.kind == .unsupported)
            try expect(expected, "ended with \(String(describing: error))")
        },
    ]

    /// A `GET` of `url` asking to switch to the test protocol `girders-test`.
    private static func switching(_ url: URL) -> Request {
        var request = MutableRequest(method: .get, url: url)
        request.headers["Upgrade"] = "girders-test"
        request.headers["Connection"] = "Upgrade"
        return Request(request)
    }

    private static func echoed(_ request: Request, _ context: Context) async throws -> Echo {
        let response = try await context.client.perform(request)
        return try JSONDecoder().decode(Echo.self, from: response.body)
    }

    private static func failure(_ body: () async throws -> Void) async -> ResponseError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? ResponseError
        }
    }
}
