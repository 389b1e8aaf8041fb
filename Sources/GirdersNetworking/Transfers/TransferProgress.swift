/// How far a transfer has come: the bytes sent (while uploading) or received (while downloading).
public struct TransferProgress: Sendable, Equatable {
    /// Which way the bytes counted here travel.
    public enum Direction: Sendable, Equatable {
        /// The request body going to the server.
        case upload
        /// The response body coming from the server.
        case download
    }

    /// Which way the bytes travel.
    public let direction: Direction
    /// The bytes transferred so far.
    public let completedBytes: Int64
    /// The bytes expected in all, when known (`Content-Length`, or the size of the body being sent).
    public let totalBytes: Int64?

    /// A progress value.
    public init(direction: Direction, completedBytes: Int64, totalBytes: Int64?) {
        self.direction = direction
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// `completedBytes / totalBytes` between 0 and 1, or `nil` while the total is unknown.
    public var fractionCompleted: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }
}
