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
}
