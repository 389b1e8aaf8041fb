import GirdersSupport

/// Where a destination reports its own failures (a log file that stopped accepting writes). The seam lets tests
/// capture the report instead of reading the process's standard error.
protocol LogDiagnostics: Sendable {
    func report(_ message: String)
}

/// Reports on standard error, the only place left when logging itself fails.
struct StandardErrorDiagnostics: LogDiagnostics {
    func report(_ message: String) {
        _ = POSIXFile.writeAll(2, "GirdersLog: " + message + "\n")
    }
}
