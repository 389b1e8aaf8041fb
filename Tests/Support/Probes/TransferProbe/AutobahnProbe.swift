import Foundation
import GirdersNetworking
import GirdersWebSocket

/// `TransferProbe autobahn <ws://host:port> curl|urlSession deflate|plain <agent> [first-last]`: the echo client of
/// Autobahn|Testsuite's `fuzzingserver` mode (Scripts/autobahn.sh). For each case (all the server has, or those
/// numbered `first` to `last`) it connects to `/runCase?case=N&agent=AGENT` and sends back every message it reads
/// until the connection ends, then asks the server to write its reports (`/updateReports`). The limits are raised
/// to the suite's largest message (16 MiB) and beyond, as any client meant to echo them would.
enum AutobahnProbe {
    static func run(
        _ base: String, transport name: String, compression: Bool, agent: String, range: String?
    ) async
        -> Int32
    {
        var transport: any HTTPTransport = URLSessionTransport(configuration: .default)
        #if os(Linux)
        if name == "curl" { transport = CurlTransport() }
        #endif
        let client = HTTPClient(transport: transport)
        var options = WebSocket.Options(compression: compression)
        options.limits = WebSocketLimits(frameBytes: 64 << 20, messageBytes: 64 << 20, decompressionRatio: 1000)
        guard let count = await caseCount(client, base) else {
            FileHandle.standardError.write(Data("autobahn: no case count from \(base)\n".utf8))
            return 1
        }
        var cases = Array(1...max(count, 1))
        if let range {
            let bounds = range.split(separator: "-").compactMap { Int($0) }
            if bounds.count == 2 { cases = Array(max(bounds[0], 1)...min(bounds[1], count)) }
        }
        let escapedAgent = agent.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? agent
        for number in cases {
            guard let url = URL(string: "\(base)/runCase?case=\(number)&agent=\(escapedAgent)") else { return 1 }
            await echo(client, url, options)
        }
        if let url = URL(string: "\(base)/updateReports?agent=\(escapedAgent)"),
            let socket = try? await client.webSocket(Request(URL: url, method: .get))
        {
            do {
                for try await _ in socket.messages {}
            } catch {
                return 0  // the reports are written whether the close was clean or not
            }
        }
        return 0
    }

    /// Echoes every message of one case until the connection ends, however it ends.
    static func echo(_ client: HTTPClient, _ url: URL, _ options: WebSocket.Options) async {
        guard let socket = try? await client.webSocket(Request(URL: url, method: .get), options: options) else {
            return
        }
        do {
            for try await message in socket.messages {
                try await socket.send(message)
            }
        } catch {
            return
        }
    }

    /// `/getCaseCount`: one text message with the number of cases.
    static func caseCount(_ client: HTTPClient, _ base: String) async -> Int? {
        guard let url = URL(string: "\(base)/getCaseCount"),
            let socket = try? await client.webSocket(Request(URL: url, method: .get))
        else { return nil }
        var count: Int?
        do {
            for try await message in socket.messages {
                if case .text(let text) = message { count = Int(text) }
            }
        } catch {
            return count
        }
        return count
    }
}
