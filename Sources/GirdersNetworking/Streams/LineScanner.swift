import Foundation

/// Splits a body that arrives in pieces into lines: a line ends at LF, CRLF or a lone CR (a CRLF split between two
/// pieces is one line end), and holds at most ``maximumBytes`` bytes, so a server cannot make one line take all
/// memory. Used by ``ResponseBody/lines`` and by the Server-Sent Events parser (which the SSE specification
/// requires to accept all three line ends).
struct LineScanner {
    /// The most bytes one line may hold, its line end not counted.
    let maximumBytes: Int
    private var line: [UInt8] = []
    /// Whether the last byte seen was a CR, so an LF right after it ends nothing.
    private var afterCR = false
    private var pending: [[UInt8]] = []
    private var next = 0

    init(maximumBytes: Int) {
        self.maximumBytes = max(1, maximumBytes)
    }

    /// Whether a line passed the maximum: the bytes after it were not taken. The lines completed before it are still
    /// returned by ``nextLine()``, so a reader sees the same lines however the body was split.
    private(set) var overflowed = false

    /// Takes `bytes`; the lines they complete are then returned by ``nextLine()``.
    mutating func append(_ bytes: Data) {
        guard !overflowed else { return }
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0A: pending.append(line); line.removeAll(keepingCapacity: true)
            case 0x0D:
                pending.append(line)
                line.removeAll(keepingCapacity: true)
                afterCR = true
            default:
                guard line.count < maximumBytes else {
                    overflowed = true
                    return
                }
                line.append(byte)
            }
        }
    }

    /// The next complete line, without its line end, or `nil` until more bytes arrive.
    mutating func nextLine() -> [UInt8]? {
        guard next < pending.count else {
            pending.removeAll(keepingCapacity: true)
            next = 0
            return nil
        }
        defer { next += 1 }
        return pending[next]
    }

    /// At the end of the body: the last line if it had no line end (and is not empty), once.
    mutating func finish() -> [UInt8]? {
        guard !line.isEmpty else { return nil }
        defer { line.removeAll() }
        return line
    }
}
