// Girders' WebSocket client against a WebSocket server (Scripts/bench-websocket.sh starts PyPI's websockets):
// round trips of small text messages one after another, and a stream of binary messages from the server.
// Usage: WebSocketThroughput PORT SCENARIO TRANSPORT COMPRESSION
//   SCENARIO: roundtrip (10,000 echoes of 16 bytes) or stream (20,000 messages of 64 KiB from /count)
//   TRANSPORT: curl or urlSession; COMPRESSION: on or off (permessage-deflate offered)
// Prints one line: scenario, messages per second, bytes per second, peak RSS KiB, CPU seconds.
import BenchSupport
import Foundation
import GirdersNetworking

#if canImport(GirdersWebSocket)  // an earlier Girders (before/after runs) has WebSockets in GirdersNetworking
import GirdersWebSocket
#endif

let arguments = CommandLine.arguments
guard arguments.count == 5, let port = Int(arguments[1]) else {
    FileHandle.standardError.write(
        Data("usage: WebSocketThroughput PORT roundtrip|stream curl|urlSession on|off\n".utf8))
    exit(2)
}
let scenario = arguments[2]
let compression = arguments[4] == "on"
#if canImport(FoundationNetworking)
let transport: any HTTPTransport =
    arguments[3] == "curl" ? CurlTransport() : URLSessionTransport(configuration: .default)
#else
let transport: any HTTPTransport = URLSessionTransport(configuration: .default)
#endif
let client = HTTPClient(transport: transport)
let roundTrips = 10_000
let streamed = (count: 20_000, size: 65_536)

func url(_ path: String) -> URL {
    URL(string: "ws://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
}

let options = WebSocket.Options(compression: compression)
let started = ContinuousClock.now
var messages = 0
var bytes = 0
switch scenario {
case "roundtrip":
    let socket = try await client.webSocket(Request(URL: url("/echo"), method: .get), options: options)
    var iterator = socket.messages.makeAsyncIterator()
    let text = String(repeating: "x", count: 16)
    for _ in 0..<roundTrips {
        try await socket.send(.text(text))
        guard case .text(let echoed)? = try await iterator.next(), echoed.utf8.count == 16 else {
            throw WebSocketError.connectionLost(reason: "the echo did not come back")
        }
        messages += 1
        bytes += 16
    }
    await socket.close()
default:
    let socket = try await client.webSocket(
        Request(URL: url("/count?n=\(streamed.count)&size=\(streamed.size)"), method: .get), options: options)
    for try await message in socket.messages {
        if case .binary(let data) = message {
            messages += 1
            bytes += data.count
        }
    }
}
let seconds = (ContinuousClock.now - started) / .seconds(1)
print(
    String(
        format: "%@ %.0f %.0f %d %.2f", scenario, Double(messages) / seconds, Double(bytes) / seconds,
        ProcessUsage.peakResidentKiB(), ProcessUsage.cpuSeconds()))
