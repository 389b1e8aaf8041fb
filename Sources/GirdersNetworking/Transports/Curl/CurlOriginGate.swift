#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation

/// Which transfers may share a connection with `CURLOPT_PIPEWAIT`, decided per https origin on the engine's thread,
/// so that no request ever waits for another one's head or end.
///
/// `CURLOPT_PIPEWAIT` makes libcurl 7.88 park a transfer while the origin's first connection has not yet said
/// whether it can multiplex, and then release the parked transfers one per event (a transfer ending, a connection
/// made): with it on every transfer, a request to an HTTP/1.1 origin waited for the first request's head, and a
/// burst opened its connections one after another. Without it, a burst to an HTTP/2 origin opens a connection per
/// request before the first learns that the server speaks h2. So:
///
/// - plain http never waits: libcurl speaks HTTP/1.1 there (Girders asks for no h2c);
/// - the first transfer to an https origin with nothing in flight goes alone as its scout, without the option,
///   and the transfers that follow wait here, in Girders, until the scout's connection is made (libcurl's
///   prerequest callback: the TLS handshake and its ALPN are done, so libcurl knows whether it multiplexes);
///   then they all go at once with the option: they share the connection on HTTP/2 and each open their own,
///   up to the connection limit, on HTTP/1.1;
/// - while a transfer to the origin that went after a made connection is in flight, new ones go at once with the
///   option (libcurl knows the connection's kind);
/// - a scout that fails before its connection is made hands the role to the next waiting transfer.
///
/// On a libcurl older than 7.80.0 (no prerequest callback), no transfer waits and none asks to.
struct CurlOriginGate {
    /// What the engine does with a transfer.
    enum Admission {
        /// Add it to libcurl now, asking it to wait for a multiplexed connection or not.
        case start(pipeWait: Bool)
        /// Keep it until the origin's scout has its connection.
        case held
    }

    private struct Origin {
        /// Transfers of this origin added to libcurl and not yet ended.
        var running = 0
        /// Whether a transfer of this origin reached its connection while all of them were running.
        var connected = false
        /// The transfer finding out whether the origin multiplexes.
        var scout: CurlTransfer?
        /// Transfers waiting for the scout, in order.
        var held: [CurlTransfer] = []
    }

    private var origins: [String: Origin] = [:]
    /// Origins with a scout that has not reached its connection yet (checked after each `curl_multi_perform`).
    private var scouting: Set<String> = []
    let enabled: Bool

    init(enabled: Bool = girders_curl_version_num() >= 0x07_50_00) {
        self.enabled = enabled
    }

    /// The origin `transfer` is gated by, or `nil` for plain http (or when gating is off).
    static func key(of url: URL) -> String? {
        guard url.scheme?.lowercased() == "https", let host = url.host?.lowercased() else { return nil }
        return "\(host):\(url.port ?? 443)"
    }

    /// Decides how `transfer` starts (its `origin` set beforehand).
    mutating func admit(_ transfer: CurlTransfer) -> Admission {
        guard enabled, let key = transfer.origin else { return .start(pipeWait: false) }
        var origin = origins[key] ?? Origin()
        defer { origins[key] = origin }
        if origin.connected, origin.running > 0 {
            origin.running += 1
            return .start(pipeWait: true)
        }
        if origin.scout != nil {
            origin.held.append(transfer)
            return .held
        }
        origin.scout = transfer
        origin.running += 1
        scouting.insert(key)
        transfer.isScout = true
        return .start(pipeWait: false)
    }

    /// The held transfers whose scout has its connection now, to start with the option; call after
    /// `curl_multi_perform`.
    mutating func releaseConnected() -> [CurlTransfer] {
        guard !scouting.isEmpty else { return [] }
        var released: [CurlTransfer] = []
        for key in scouting {
            guard var origin = origins[key], let scout = origin.scout, scout.reachedConnection else { continue }
            scouting.remove(key)
            origin.scout = nil
            origin.connected = true
            origin.running += origin.held.count
            released += origin.held
            origin.held = []
            origins[key] = origin
        }
        return released
    }

    /// `transfer` ended (or was never started, if it was held): forgets it, and returns the transfer that takes
    /// over as scout when it was one and failed before its connection was made.
    mutating func ended(_ transfer: CurlTransfer) -> CurlTransfer? {
        guard enabled, let key = transfer.origin, var origin = origins[key] else { return nil }
        defer { origins[key] = origin.running == 0 && origin.held.isEmpty ? nil : origin }
        if let index = origin.held.firstIndex(where: { $0 === transfer }) {
            origin.held.remove(at: index)
            return nil
        }
        origin.running -= 1
        if origin.running == 0 { origin.connected = false }
        guard origin.scout === transfer else { return nil }
        origin.scout = nil
        scouting.remove(key)
        guard !origin.held.isEmpty else { return nil }
        let next = origin.held.removeFirst()
        origin.scout = next
        origin.running += 1
        scouting.insert(key)
        next.isScout = true
        return next
    }

    /// Every transfer still held, for a stopping engine and the timeout scan.
    var heldTransfers: [CurlTransfer] { origins.values.flatMap(\.held) }

    /// Whether no transfer of any gated origin runs or waits.
    var isEmpty: Bool { origins.isEmpty }
}
#endif
