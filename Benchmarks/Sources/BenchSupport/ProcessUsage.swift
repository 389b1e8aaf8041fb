import Foundation

/// What the HTTP benchmarks read about their own process: peak memory and CPU time.
public enum ProcessUsage {
    /// The peak resident set size of this process so far, in KiB.
    public static func peakResidentKiB() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss
    }

    /// CPU time of the whole process so far (user and system, every thread), in seconds.
    public static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// The CPU time of the process's busiest threads so far, in milliseconds, busiest first (from `/proc/self/task`;
    /// empty where there is none).
    public static func busiestThreadsMilliseconds(_ count: Int) -> [Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        let ticksPerSecond = max(sysconf(Int32(_SC_CLK_TCK)), 1)
        let ticks = tasks.compactMap { task -> Int? in
            guard let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return nil }
            // After the command's closing parenthesis: state is field 0, utime field 11, stime field 12.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
            return user + system
        }
        return ticks.sorted(by: >).prefix(count).map { $0 * 1000 / ticksPerSecond }
    }
}
