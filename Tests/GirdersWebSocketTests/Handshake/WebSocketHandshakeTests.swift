import Foundation
import GirdersTestServers
import Testing

@testable import GirdersNetworking
@testable import GirdersWebSocket

/// The client's opening handshake (RFC 6455, section 4) and permessage-deflate's negotiation (RFC 7692, section 7).
struct WebSocketHandshakeTests {
    /// The RFC's own example key (section 1.3).
    let handshake = WebSocketHandshake(protocols: ["chat", "superchat"], key: "dGhlIHNhbXBsZSBub25jZQ==")

    func answer(_ extra: [String: String] = [:], without: String? = nil) -> HTTPHeaders {
        var headers: HTTPHeaders = [
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
        ]
        for (name, value) in extra { headers[name] = value }
        if let without { headers[without] = nil }
        return headers
    }

    func rule(_ headers: HTTPHeaders, status: Int = 101) -> String? {
        do throws(WebSocketError) {
            _ = try handshake.check(status: status, headers: headers)
            return nil
        } catch {
            if case .protocolViolation(let rule, _) = error { return rule }
            return "\(error)"
        }
    }

    @Test func theAcceptValueIsTheRFCsExample_RFC6455_1_3() {
        #expect(WebSocketHandshake.accept(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func theRequestOffersVersion13AFreshKeyTheProtocolsAndDeflate_RFC6455_4_1() throws {
        let fields = Dictionary(uniqueKeysWithValues: WebSocketHandshake(protocols: ["chat"]).requestFields)
        #expect(fields["Upgrade"] == "websocket" && fields["Connection"] == "Upgrade")
        #expect(fields["Sec-WebSocket-Version"] == "13" && fields["Sec-WebSocket-Protocol"] == "chat")
        #expect(fields["Sec-WebSocket-Extensions"] == "permessage-deflate; client_max_window_bits")
        let key = try #require(fields["Sec-WebSocket-Key"].flatMap { Data(base64Encoded: $0) })
        #expect(key.count == 16)
        #expect(WebSocketHandshake().key != WebSocketHandshake().key)
    }

    @Test func aGoodAnswerIsAccepted() throws {
        let agreement = try handshake.check(
            status: 101, headers: answer(["Sec-WebSocket-Protocol": "chat", "Connection": "keep-alive, Upgrade"]))
        #expect(agreement == .init(protocol: "chat", compression: false, serverResetsContext: false))
    }

    @Test func anAnswerThatIsNotAnUpgradeFailsTheConnection_RFC6455_4_1() {
        #expect(rule(answer(), status: 200)?.contains("not 101") == true)
        #expect(rule(answer(without: "Upgrade"))?.contains("Upgrade: websocket") == true)
        #expect(rule(answer(["Upgrade": "h2c"]))?.contains("Upgrade: websocket") == true)
        #expect(rule(answer(without: "Connection"))?.contains("Connection: Upgrade") == true)
        #expect(rule(answer(["Sec-WebSocket-Accept": "AAAAAAAAAAAAAAAAAAAAAAAAAAA="]))?.contains("Accept") == true)
        #expect(rule(answer(without: "Sec-WebSocket-Accept"))?.contains("Accept") == true)
        #expect(rule(answer(["Sec-WebSocket-Protocol": "other"]))?.contains("not offered") == true)
    }

    @Test func permessageDeflateIsTakenWithTheParametersAClientCanHonour_RFC7692_7_1() throws {
        let plain = try handshake.check(
            status: 101, headers: answer(["Sec-WebSocket-Extensions": "permessage-deflate"]))
        #expect(plain.compression && !plain.serverResetsContext)
        let reset = try handshake.check(
            status: 101,
            headers: answer([
                "Sec-WebSocket-Extensions":
                    "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10"
            ]))
        #expect(reset.compression && reset.serverResetsContext)
    }

    @Test(arguments: [
        "x-webkit-deflate-frame", "permessage-deflate, permessage-deflate",
        "permessage-deflate; server_max_window_bits=7",
        "permessage-deflate; client_max_window_bits=16", "permessage-deflate; client_max_window_bits=x",
        "permessage-deflate; server_no_context_takeover=1",
        "permessage-deflate; server_no_context_takeover; server_no_context_takeover", "permessage-deflate; unknown",
    ])
    func anExtensionOrParameterTheClientDidNotAskForFailsTheConnection_RFC6455_9_1_and_RFC7692_7_1(_ field: String) {
        #expect(rule(answer(["Sec-WebSocket-Extensions": field])) != nil)
    }

    /// Autobahn's cases 13.3 to 13.6 answer with `client_max_window_bits=8` or `15`, which an offer may allow only by
    /// carrying `client_max_window_bits` (before, it did not, and the suite marked 72 cases unimplemented).
    @Test func theServerMayNameTheClientsWindowWhenTheOfferAllowsIt_RFC7692_7_1_2_2() throws {
        for bits in [8, 15] {
            let agreement = try handshake.check(
                status: 101,
                headers: answer([
                    "Sec-WebSocket-Extensions":
                        "permessage-deflate; client_no_context_takeover; client_max_window_bits=\(bits)"
                ]))
            #expect(agreement.compression)
        }
        let without = WebSocketHandshake(
            deflate: WebSocket.DeflateParameters(clientMaxWindowBits: false), key: "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(
            Dictionary(uniqueKeysWithValues: without.requestFields)["Sec-WebSocket-Extensions"] == "permessage-deflate")
        #expect(throws: WebSocketError.self) {
            try without.check(
                status: 101,
                headers: answer(["Sec-WebSocket-Extensions": "permessage-deflate; client_max_window_bits=9"]))
        }
    }

    /// The `server_*` parameters an app asks for through `WebSocket.Options.deflate` are offered, and an answer that
    /// does not honour them fails the handshake (RFC 7692, 7.1.1.1 and 7.1.2.1).
    @Test func theServerParametersAskedForAreOfferedAndHeldTo_RFC7692_7_1() throws {
        let asking = WebSocketHandshake(
            deflate: WebSocket.DeflateParameters(
                serverNoContextTakeover: true, serverMaxWindowBits: 10, clientNoContextTakeover: true),
            key: "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(
            Dictionary(uniqueKeysWithValues: asking.requestFields)["Sec-WebSocket-Extensions"]
                == "permessage-deflate; server_no_context_takeover; server_max_window_bits=10; client_no_context_takeover; client_max_window_bits"
        )
        let honoured = try asking.check(
            status: 101,
            headers: answer([
                "Sec-WebSocket-Extensions": "permessage-deflate; server_no_context_takeover; server_max_window_bits=9"
            ]))
        #expect(honoured.serverResetsContext)
        for field in [
            "permessage-deflate; server_max_window_bits=10", "permessage-deflate; server_no_context_takeover",
            "permessage-deflate; server_no_context_takeover; server_max_window_bits=12",
        ] {
            #expect(throws: WebSocketError.self, "\(field)") {
                try asking.check(status: 101, headers: answer(["Sec-WebSocket-Extensions": field]))
            }
        }
    }

    @Test func deflateIsRefusedWhenItWasNotOffered_RFC6455_9_1() {
        let plain = WebSocketHandshake(offersCompression: false, key: "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(throws: WebSocketError.self) {
            try plain.check(status: 101, headers: answer(["Sec-WebSocket-Extensions": "permessage-deflate"]))
        }
    }
}
