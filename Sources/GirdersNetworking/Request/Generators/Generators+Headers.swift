public import Foundation

// Generator functions for headers, query, URL and timeout.

/// Asks for JSON: `Accept: application/json`. The body functions set `Content-Type` themselves.
public func withJsonSupport(_ request: consuming MutableRequest) -> MutableRequest {
    request.headers["Accept"] = "application/json"
    return request
}

/// Sets (replaces) one header field.
public func withHeader(_ name: String, _ value: String) -> RequestTransform {
    { (request: consuming MutableRequest) in
        request.headers[name] = value
        return request
    }
}

/// Sets (replaces) several header fields.
public func withHeaders(_ fields: [String: String]) -> RequestTransform {
    { (request: consuming MutableRequest) in
        request.updateHTTPHeaderFields(fields)
        return request
    }
}

/// Appends one query item; the same name may appear several times.
public func withQueryItem(_ name: String, _ value: String?) -> RequestTransform {
    withQueryItems([URLQueryItem(name: name, value: value)])
}

/// Appends query items in order.
public func withQueryItems(_ items: [URLQueryItem]) -> RequestTransform {
    { (request: consuming MutableRequest) in
        request.queryItems += items
        return request
    }
}

/// Appends GirdersSwift-style query parameters: sorted by name, arrays as repeated names.
public func withQueryParameters(_ parameters: [String: Any]) -> RequestTransform {
    withQueryItems(QueryEncoding.items(from: parameters))
}

/// Sets the URL (without query items).
public func withURL(_ url: URL) -> RequestTransform {
    { (request: consuming MutableRequest) in
        request.url = url
        return request
    }
}

/// Sets how much of the response this request may hold, in place of the client's ``HTTPClient/responseLimits``
/// (see ``ResponseLimits``). A negative size fails the request before anything is sent.
///
/// ```swift
/// let export = Request(MutableRequest(url: exportURL) |> withResponseLimits(ResponseLimits(bodyBytes: 512 << 20)))
/// ```
public func withResponseLimits(_ limits: ResponseLimits) -> RequestTransform {
    { (request: consuming MutableRequest) in
        if let problem = limits.problem {
            request.fail(problem)
        } else {
            request.responseLimits = limits
        }
        return request
    }
}

/// Sets the time allowed for the whole request: ``HTTPClient`` stops it when `seconds` have passed since it began,
/// through every retry, retry delay and redirect, with ``ResponseError/deadlineExceeded(url:seconds:)``.
///
/// ``withTimeout(_:)`` is the time allowed *without progress*, per attempt (as URLSession's `timeoutInterval`): a
/// server that sends a byte now and then never trips it. A deadline bounds the total:
///
/// ```swift
/// let request = Request(MutableRequest(url: feedURL) |> withTimeout(10) |> withDeadline(30))
/// ```
///
/// A deadline that is not a positive number of seconds fails the request before anything is sent. Sent straight
/// through a transport (not a client), a request has no deadline.
public func withDeadline(_ seconds: TimeInterval) -> RequestTransform {
    { (request: consuming MutableRequest) in
        if seconds > 0, seconds.isFinite {
            request.deadline = seconds
        } else {
            request.fail("the deadline must be a positive number of seconds, not \(seconds)")
        }
        return request
    }
}

/// Sets the time allowed without progress before the request fails with ``ResponseError/timedOut(url:)``.
///
/// It is per attempt and restarts with every byte that arrives, as URLSession's `timeoutInterval` does, so a
/// server that trickles a byte at a time never trips it; ``withDeadline(_:)`` bounds the whole request.
public func withTimeout(_ seconds: TimeInterval) -> RequestTransform {
    { (request: consuming MutableRequest) in
        if seconds > 0 {
            request.timeout = seconds
        } else {
            request.fail("the timeout must be positive, not \(seconds)")
        }
        return request
    }
}
