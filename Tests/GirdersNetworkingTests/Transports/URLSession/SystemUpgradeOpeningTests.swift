import Foundation
import Testing

@testable import GirdersNetworking

/// How the handshake of a `URLSessionWebSocketTask` ends for the exchange.
struct SystemUpgradeOpeningTests {
    let url = URL(fileURLWithPath: "/ws")

    @Test
    func anOpenedTaskIsA101AndARefusalKeepsItsStatusForValidation() {
        #expect(
            SystemUpgradeOpening.decide(.opened, status: 101, url: url, cancelled: false, timedOut: false)
                == .head(status: 101))
        #expect(
            SystemUpgradeOpening.decide(
                .failed(URLError(.badServerResponse)), status: 401, url: url, cancelled: false, timedOut: false)
                == .head(status: 401))
    }

    @Test
    func failuresAreTheErrorsEveryTransportGives() {
        #expect(
            SystemUpgradeOpening.decide(.failed(nil), status: nil, url: url, cancelled: true, timedOut: false)
                == .failure(.cancelled(url: url)))
        #expect(
            SystemUpgradeOpening.decide(.failed(nil), status: nil, url: url, cancelled: false, timedOut: true)
                == .failure(.timedOut(url: url)))
        guard
            case .failure(let error) = SystemUpgradeOpening.decide(
                .failed(URLError(.cannotConnectToHost)), status: nil, url: url, cancelled: false, timedOut: false)
        else {
            Issue.record("no failure")
            return
        }
        #expect(error.kind == .cannotConnect)
    }
}
