import Foundation

/// Why a HAR file could not be read or written.
public enum HARError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read, or holds no HAR 1.2 archive.
    case unreadable(file: String, reason: String)
    /// The archive could not be written to the file.
    case unwritable(file: String, reason: String)

    /// The file and what is wrong with it.
    public var description: String {
        switch self {
        case .unreadable(let file, let reason): "\(file): not a HAR 1.2 archive: \(reason)"
        case .unwritable(let file, let reason): "\(file): the HAR archive could not be written: \(reason)"
        }
    }

    /// A decoding error in words that name the field: `log.entries[3].request.url: missing`.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
                .drop { $0 == "." }.description
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context)).\(key.stringValue): missing".drop { $0 == "." }.description
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? context.debugDescription : "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }
}
