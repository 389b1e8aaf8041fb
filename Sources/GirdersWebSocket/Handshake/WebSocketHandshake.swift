import Foundation
import GirdersNetworking
import GirdersSupport

#if canImport(CGirdersOpenSSL)
import CGirdersOpenSSL
#elseif canImport(CryptoKit)
import CryptoKit
#endif

/// The client's half of the opening handshake (RFC 6455, section 4): the fields the upgrade request carries, and
/// the checks a server's answer must pass before a single frame is read.
package struct WebSocketHandshake: Sendable {
    /// The `Sec-WebSocket-Key`: 16 random bytes in base64 (section 4.1).
    let key: String
    /// The subprotocols offered, in order of preference (`Sec-WebSocket-Protocol`).
    let protocols: [String]
    /// Whether permessage-deflate is offered (RFC 7692).
    let offersCompression: Bool
    /// The parameters of the permessage-deflate offer.
    let deflate: WebSocket.DeflateParameters

    /// What the server agreed to.
    struct Agreement: Sendable, Equatable {
        /// The subprotocol the server chose, if any.
        var `protocol`: String?
        /// Whether messages may be compressed.
        var compression: Bool
        /// Whether the server starts a new DEFLATE stream for each message (`server_no_context_takeover`).
        var serverResetsContext: Bool
    }

    /// The GUID section 1.3 appends to the key.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    init(
        protocols: [String] = [], offersCompression: Bool = true,
        deflate: WebSocket.DeflateParameters = WebSocket.DeflateParameters(), key: String? = nil
    ) {
        self.protocols = protocols
        self.offersCompression = offersCompression
        self.deflate = deflate
        if let key {
            self.key = key
        } else {
            var generator = SystemRandomNumberGenerator()
            self.key = Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64EncodedString()
        }
    }

    /// The fields of the upgrade request (section 4.1).
    var requestFields: [(String, String)] {
        var fields = [
            ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", key),
            ("Sec-WebSocket-Version", "13"),
        ]
        if !protocols.isEmpty { fields.append(("Sec-WebSocket-Protocol", protocols.joined(separator: ", "))) }
        if offersCompression { fields.append(("Sec-WebSocket-Extensions", deflate.offer)) }
        return fields
    }

    /// `Sec-WebSocket-Accept` for `key` (section 4.2.2): base64 of the SHA-1 of the key and the GUID; `nil` where
    /// SHA-1 cannot be had (libcrypto missing on Linux). Package-wide for GirdersNetworkingTesting's test server.
    package static func accept(forKey key: String) -> String? {
        let input = Array((key + guid).utf8)
        #if canImport(CGirdersOpenSSL)
        guard girders_crypto_load() == nil else { return nil }
        var digest = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 0
        guard EVP_Digest(input, input.count, &digest, &length, EVP_sha1(), nil) == 1, length == 20 else { return nil }
        return Data(digest).base64EncodedString()
        #elseif canImport(CryptoKit)
        return Data(Insecure.SHA1.hash(data: input)).base64EncodedString()
        #else
        return nil
        #endif
    }

    /// What the server's answer agreed to, or the rule it breaks (section 4.1's checks, RFC 7692 section 5).
    func check(status: Int, headers: HTTPHeaders) throws(WebSocketError) -> Agreement {
        guard status == 101 else {
            throw .protocolViolation(
                rule: "the server answered \(status), not 101 Switching Protocols (4.1)", code: .protocolError)
        }
        guard headers["Upgrade"]?.trimmingCharacters(in: .whitespaces).lowercased() == "websocket" else {
            throw .protocolViolation(rule: "no 'Upgrade: websocket' in the server's answer (4.1)", code: .protocolError)
        }
        let connection = headers.values(for: "Connection").flatMap { $0.split(atScalar: ",") }.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard connection.contains("upgrade") else {
            throw .protocolViolation(
                rule: "no 'Connection: Upgrade' in the server's answer (4.1)", code: .protocolError)
        }
        guard let expected = Self.accept(forKey: key) else {
            throw .connectionLost(reason: "SHA-1 is not available to check Sec-WebSocket-Accept (libcrypto on Linux)")
        }
        guard headers["Sec-WebSocket-Accept"]?.trimmingCharacters(in: .whitespaces) == expected else {
            throw .protocolViolation(
                rule: "a Sec-WebSocket-Accept that does not answer the key (4.1)", code: .protocolError)
        }
        var agreement = try checkSubprotocol(headers)
        for field in headers.values(for: "Sec-WebSocket-Extensions") {
            for offer in field.split(atScalar: ",") where !offer.trimmingCharacters(in: .whitespaces).isEmpty {
                try accept(extension: offer, into: &agreement)
            }
        }
        return agreement
    }

    /// The subprotocol the answer chose, which must be one offered (4.1); no compression agreed yet.
    func checkSubprotocol(_ headers: HTTPHeaders) throws(WebSocketError) -> Agreement {
        var agreement = Agreement(protocol: nil, compression: false, serverResetsContext: false)
        if let chosen = headers["Sec-WebSocket-Protocol"]?.trimmingCharacters(in: .whitespaces) {
            guard protocols.contains(chosen) else {
                throw .protocolViolation(
                    rule: "the subprotocol '\(chosen)' was not offered (4.1)", code: .protocolError)
            }
            agreement.protocol = chosen
        }
        return agreement
    }

    /// The fields of the upgrade request that the system's WebSocket task writes itself (``requestFields`` but the
    /// subprotocols, which it reads from the request).
    static let fieldsTheSystemWrites = [
        "Upgrade", "Connection", "Sec-WebSocket-Key", "Sec-WebSocket-Version", "Sec-WebSocket-Extensions",
    ]

    /// One extension of the answer: permessage-deflate with parameters the client can honour, once (RFC 7692, 7.1).
    private func accept(extension offer: Substring, into agreement: inout Agreement) throws(WebSocketError) {
        let parts = offer.split(atScalar: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard parts.first == "permessage-deflate", offersCompression, !agreement.compression else {
            throw .protocolViolation(
                rule:
                    "the server agreed to an extension that was not offered: '\(offer.trimmingCharacters(in: .whitespaces))' (9.1)",
                code: .protocolError)
        }
        agreement.compression = true
        var seen = Set<String>()
        for parameter in parts.dropFirst() {
            let pair = parameter.split(atScalar: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let name = pair[0]
            guard seen.insert(name).inserted else {
                throw .protocolViolation(
                    rule: "permessage-deflate's '\(name)' given twice (RFC 7692, 7.1)", code: .protocolError)
            }
            let bits = pair.count == 2 ? Int(pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) : nil
            switch name {
            case "server_no_context_takeover" where pair.count == 1: agreement.serverResetsContext = true
            case "client_no_context_takeover" where pair.count == 1: break  // the client sends uncompressed
            case "server_max_window_bits" where pair.count == 2:
                guard let bits, (8...15).contains(bits) else {
                    throw .protocolViolation(
                        rule: "server_max_window_bits=\(pair[1]) (RFC 7692, 7.1.2.1: 8 to 15)", code: .protocolError)
                }
                if let asked = deflate.serverMaxWindowBits, bits > asked {
                    throw .protocolViolation(
                        rule: "server_max_window_bits=\(bits), more than the \(asked) asked for (RFC 7692, 7.1.2.1)",
                        code: .protocolError)
                }
            case "client_max_window_bits" where pair.count == 2 && deflate.clientMaxWindowBits:
                // The client sends uncompressed: any window the server names is kept.
                guard let bits, (8...15).contains(bits) else {
                    throw .protocolViolation(
                        rule: "client_max_window_bits=\(pair[1]) (RFC 7692, 7.1.2.2: 8 to 15)", code: .protocolError)
                }
            default:
                throw .protocolViolation(
                    rule:
                        "permessage-deflate's parameter '\(parameter)' (RFC 7692, 7.1: the client did not ask for it)",
                    code: .protocolError)
            }
        }
        if deflate.serverNoContextTakeover, !agreement.serverResetsContext {
            throw .protocolViolation(
                rule: "no server_no_context_takeover in the answer, which the offer asked for (RFC 7692, 7.1.1.1)",
                code: .protocolError)
        }
        if deflate.serverMaxWindowBits != nil, !seen.contains("server_max_window_bits") {
            throw .protocolViolation(
                rule: "no server_max_window_bits in the answer, which the offer asked for (RFC 7692, 7.1.2.1)",
                code: .protocolError)
        }
    }
}
