import GirdersSupport

// Generator functions that decide, for one request, which statuses count as success.

/// Accepts exactly `codes` as success for this request, in place of the client's
/// ``ResponseValidation/acceptableStatusCodes``; every other status fails with its ``ResponseError`` case. The
/// client's content-type check still applies.
///
/// ```swift
/// let lookup = Request(MutableRequest(url: url) |> withAcceptableStatusCodes(Set(200..<300).union([404])))
/// ```
public func withAcceptableStatusCodes(_ codes: Set<Int>) -> RequestTransform {
    { (request: consuming MutableRequest) in
        request.acceptableStatusCodes = codes
        return request
    }
}

/// DotDotDot's rejection codes: a status in one of `ranges` fails, every other three-digit status (100 to 999)
/// is success for this request, in place of the client's ``ResponseValidation/acceptableStatusCodes``.
///
/// ```swift
/// Request(MutableRequest(url: url) |> withRejectionCodes([100..<200, 300..<600]))
/// ```
public func withRejectionCodes(_ ranges: [Range<Int>]) -> RequestTransform {
    withAcceptableStatusCodes(ResponseValidation.statusCodes(rejecting: ranges))
}

extension ResponseValidation {
    /// Every three-digit status (100 to 999) outside `ranges`. A typed request asks on every send, so the sets
    /// are kept (at most 64 different lists of ranges; sets share their storage when copied).
    static func statusCodes(rejecting ranges: [Range<Int>]) -> Set<Int> {
        if let known = rejectionSets.withLock({ $0[ranges] }) { return known }
        let codes = Set((100...999).filter { code in !ranges.contains { $0.contains(code) } })
        rejectionSets.withLock { sets in
            if sets.count >= 64 { sets.removeAll() }
            sets[ranges] = codes
        }
        return codes
    }

    private static let rejectionSets = LockedState<[[Range<Int>]: Set<Int>]>([:])
}
