#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// A function that edits the `URLRequest` a transport builds, last (DotDotDot's `editRequest`).
///
/// Two edits are equal only when they are the same edit, so requests carrying them still compare.
public struct URLRequestEdit: Sendable, Equatable {
    private let identity = UUID()
    /// The edit.
    public let apply: @Sendable (inout URLRequest) -> Void

    /// An edit running `apply`.
    public init(_ apply: @escaping @Sendable (inout URLRequest) -> Void) {
        self.apply = apply
    }

    /// Whether both are the same edit.
    public static func == (lhs: URLRequestEdit, rhs: URLRequestEdit) -> Bool {
        lhs.identity == rhs.identity
    }
}
