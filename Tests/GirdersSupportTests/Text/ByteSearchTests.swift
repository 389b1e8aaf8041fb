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

    /// From every start, before the buffer and past its end included, `memchr` finds what a loop over the bytes
    /// finds, and never reads outside the buffer (an empty one has no base address).
    @Test(arguments: ["", "%", "a%b%%c", "no percent at all", "%start and end%", "日本%🙂%é"])
    func theFirstByteFromAnOffsetIsFoundWhereALoopFindsIt(text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            for start in -1...(bytes.count + 1) {
                let expected = (0..<bytes.count).contains(start) ? bytes[start...].firstIndex(of: 0x25) : nil
                #expect(buffer.firstOffset(of: 0x25, from: start) == expected, "from \(start)")
            }
        }
    }

    @Test func aBridgedStringWithoutContiguousUTF8IsSearchedToo() {
        let text = String(NSString(string: "plural#other"))
        #expect(text.lastIndexOfUTF8(UInt8(ascii: "#")).map { String(text[$0...]) } == "#other")
    }
}
