#if os(macOS) || os(Linux)  // starts processes: macOS and Linux only
import Foundation
import GirdersTestProcesses
import Testing

/// The tests' way to wait for children and other blocking work without holding Swift's cooperative threads.
struct OffThePoolTests {
    /// More blocking waits than there are cooperative threads, each until a task on the pool signals it: on the
    /// pool, no thread would be left for that task, and every wait would run into its 60 s limit instead.
    @Test func moreBlockingWaitsThanCoresLeaveTheCooperativeThreadsFree() async {
        let waits = ProcessInfo.processInfo.activeProcessorCount + 2
        let go = DispatchSemaphore(value: 0)
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<waits {
                group.addTask { await offThePool { go.wait(timeout: .now() + 60) == .success } }
            }
            group.addTask {
                for _ in 0..<waits { go.signal() }
                return true
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == waits + 1 && results.allSatisfy { $0 })
    }

    @Test func anErrorThrownOffThePoolReachesTheCaller() async {
        struct Refused: Error, Equatable {}
        await #expect(throws: Refused()) { try await offThePool { () throws(Refused) -> Int in throw Refused() } }
    }

    /// More than a pipe holds on both outputs, standard error first: read one after the other, the child would
    /// block on a full pipe of errors while the test waited for the end of its output.
    @Test func aChildsOutputAndErrorsPastAPipesSizeBothArriveWhole() async throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "head -c 1048576 /dev/zero | tr '\\000' e >&2; head -c 1048576 /dev/zero | tr '\\000' o; exit 7",
        ]
        let run = try await process.runToEnd()
        #expect(run.status == 7 && run.reason == .exit)
        #expect(run.errors.count == 1 << 20 && run.errors.allSatisfy { $0 == UInt8(ascii: "e") })
        #expect(run.output.count == 1 << 20 && run.output.allSatisfy { $0 == UInt8(ascii: "o") })
    }
}
#endif
