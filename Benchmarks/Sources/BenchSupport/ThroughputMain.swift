import Foundation

extension ThroughputScenario {
    /// The main of a benchmark executable run as `NAME CLIENT SCENARIO BASE_URL [N|FILE]`: `makeClient` makes the
    /// client named CLIENT, the scenario runs with it against BASE_URL, and its line is printed (``printing(_:)``).
    public static func main(
        usage: String, _ makeClient: @escaping (_ name: String) async throws -> any ThroughputClient
    ) async {
        await printing {
            let arguments = CommandLine.arguments
            guard arguments.count >= 4, let base = URL(string: arguments[3]) else { throw ThroughputFailure(usage) }
            let client = try await makeClient(arguments[1])
            return try await run(
                arguments[2], client: client, base: base, extra: arguments.count > 4 ? arguments[4] : "")
        }
    }

    /// Prints the line `body` returns or, when it throws, "<SCENARIO> FAILED <error>" (what Scripts/bench-http.sh
    /// and Scripts/compare-http.sh look for) and exits with 1.
    public static func printing(_ body: () async throws -> String) async {
        do {
            print(try await body())
        } catch {
            print("\(CommandLine.arguments.dropFirst(2).first ?? "?") FAILED \(error)")
            exit(1)
        }
    }
}
