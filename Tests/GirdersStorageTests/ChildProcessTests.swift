#if os(Linux)  // ChildProcess is Foundation's Process elsewhere
import Foundation
import GirdersTestProcesses
import Testing

/// The tests' own child processes (see `ChildProcess`), which stand in for Foundation's on Linux.
struct ChildProcessTests {
    func shell(_ script: String) -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        return process
    }

    @Test func threadsWaitingAtOnceAllSeeTheOneExitStatus() async throws {
        let process = shell("read line; exit 3")
        let input = Pipe()
        process.standardInput = input
        try process.run()
        #expect(process.isRunning)
        async let first: Int32 = offThePool {
            process.waitUntilExit(); return process.terminationStatus
        }
        async let second: Int32 = offThePool {
            process.waitUntilExit(); return process.terminationStatus
        }
        try input.fileHandleForWriting.close()
        #expect(await [first, second] == [3, 3])
        #expect(process.terminationReason == .exit && !process.isRunning)
    }

    @Test func aKilledChildReportsItsSignal() throws {
        let process = shell("exec sleep 600")
        try process.run()
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
    }

    /// A waiter does not hold the pid hostage: another thread reads it and ends the child.
    @Test func aChildCanBeKilledWhileAnotherThreadWaitsForIt() async throws {
        let process = shell("exec sleep 600")
        try process.run()
        let started = process.processIdentifier
        async let waited: Int32 = offThePool {
            process.waitUntilExit(); return process.terminationStatus
        }
        let pid = await offThePool { process.processIdentifier }  // read while the waiter may be in waitpid
        #expect(pid == started)
        kill(pid, SIGTERM)
        #expect(await waited == SIGTERM)
    }

    /// The case Foundation's `Process.run()` crashed on: many descriptors open. None of them reaches the child,
    /// whose standard output still arrives through its pipe.
    @Test func withFifteenHundredDescriptorsOpenTheChildStartsAndInheritsNone() throws {
        let pipes = (0..<750).map { _ in Pipe() }
        defer { for pipe in pipes { try? pipe.fileHandleForReading.close() } }
        let process = shell("ls /proc/self/fd")
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let listed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let descriptors = listed.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        // 0, 1 and 2, and the one `ls` opens to read the folder.
        #expect(descriptors.count == 4 && descriptors.max() == 3, "\(descriptors)")
    }

    @Test func theEnvironmentIsReplacedWhenGiven() throws {
        let process = shell("printf %s \"$GIRDERS_CHILD\"")
        process.environment = ["GIRDERS_CHILD": "given", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "given")
        process.waitUntilExit()
    }
}
#endif
