import Foundation
import GirdersSupport
import Testing

/// The byte searches over a string's contiguous UTF-8 find what the UTF-8 view's own searches find.
struct ByteSearchTests {
    @Test(arguments: ["", "#", "a#b", "inbox.count#few", "##", "no hash", "日本#🙂#é", "e\u{301}#one", "#start"])
    func theLastByteIsFoundWhereTheUTF8ViewFindsIt(text: String) {
        let found = text.lastIndexOfUTF8(UInt8(ascii: "#"))
        #expect(found == text.utf8.lastIndex(of: UInt8(ascii: "#")))
        if let found { #expect(text.utf8[found] == UInt8(ascii: "#")) }
        #expect(text.containsUTF8(UInt8(ascii: "#")) == (found != nil))
    }

    @Test func aBridgedStringWithoutContiguousUTF8IsSearchedToo() {
        let text = String(NSString(string: "plural#other"))
        #expect(text.lastIndexOfUTF8(UInt8(ascii: "#")).map { String(text[$0...]) } == "#other")
    }
}
