import Foundation
import GirdersLog
import Testing

struct PrivacyTests {
    @Test func privateInterpolationsAreRedactedByDefault() {
        let token = "s3cr3t"
        let message: LogMessage = "user \("alice") token \(token, privacy: .private) end"
        #expect(message.containsPrivateData)
        #expect(message.redactedText == "user alice token <redacted> end")
        #expect(message.revealedText == "user alice token s3cr3t end")
        #expect("\(message)" == "user alice token <redacted> end")
    }

    @Test func messagesWithoutPrivateValuesAreTheSameEitherWay() {
        let count = 3
        let message: LogMessage = "loaded \(count) items"
        #expect(!message.containsPrivateData)
        #expect(message.text(revealingPrivate: false) == "loaded 3 items")
        #expect(message.text(revealingPrivate: true) == "loaded 3 items")
    }

    @Test func privateMetadataIsRedactedInsideListsAndDictionaries() {
        let value: LogMetadataValue = ["user": "bob", "password": .private("hunter2"), "tags": [.private("x"), "y"]]
        #expect(value.description == "[password: <redacted>, tags: [<redacted>, y], user: bob]")
        #expect(value.rendered(revealingPrivate: true) == "[password: hunter2, tags: [x, y], user: bob]")
    }

    @Test func theFileDestinationRedactsUnlessItOptsIn() throws {
        let folder = try TemporaryFolder()
        for reveals in [false, true] {
            let url = folder.file("privacy-\(reveals).log")
            let file = try bufferedFileDestination(url, revealsPrivateData: reveals)
            let logger = Logger(label: "p", destination: file, metadata: ["session": .private("abc")])
            logger.info("token \("t0k3n", privacy: .private)")
            file.flush()
            let text = contents(of: url)
            #expect(text.contains("t0k3n") == reveals)
            #expect(text.contains("session=abc") == reveals)
            #expect(text.contains("<redacted>") == !reveals)
        }
    }

    @Test func theRecorderRedactsUnlessItOptsIn() {
        let hidden = LogRecorder()
        let shown = LogRecorder(revealsPrivateData: true)
        for recorder in [hidden, shown] {
            Logger(label: "p", destination: recorder).info("pin \(1234, privacy: .private)")
        }
        #expect(hidden.messages == ["pin <redacted>"])
        #expect(shown.messages == ["pin 1234"])
        #expect(!hidden.contains(message: "1234") && shown.contains(message: "1234"))
    }
}
