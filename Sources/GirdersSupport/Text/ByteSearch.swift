import Foundation  // memchr and memcmp, on every platform

extension String {
    /// Whether the UTF-8 of the string contains `byte`: `memchr` over the string's contiguous storage (native
    /// strings have it), a byte-by-byte look otherwise. `utf8.contains(_:)` walks the view's indices one at a time,
    /// which a 10 MB trema file pays for in every exporter.
    package func containsUTF8(_ byte: UInt8) -> Bool {
        let found = utf8.withContiguousStorageIfAvailable { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return false }
            return memchr(base, Int32(byte), buffer.count) != nil
        }
        return found ?? utf8.contains(byte)
    }

    /// Whether the UTF-8 of the string contains any byte `matches` accepts, looked for over contiguous storage.
    /// Inlinable, so the caller's test is compiled into the loop: called across modules, it cost a call a byte.
    @inlinable
    package func containsUTF8(where matches: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(where: matches) } ?? utf8.contains(where: matches)
    }

    /// The index of the last `byte` in the string's UTF-8, found backwards over contiguous storage: the UTF-8
    /// view's own `lastIndex(of:)` steps through its indices one at a time, about 30 instructions a byte.
    package func lastIndexOfUTF8(_ byte: UInt8) -> String.Index? {
        let offset = utf8.withContiguousStorageIfAvailable { buffer -> Int? in
            var index = buffer.count
            while index > 0 {
                index -= 1
                if buffer[index] == byte { return index }
            }
            return nil
        }
        guard let offset else { return utf8.lastIndex(of: byte) }
        return offset.map { utf8.index(utf8.startIndex, offsetBy: $0) }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The offset of the first `byte` at or after `start` (`nil` when there is none or `start` is not within the
    /// buffer): `memchr`, which looks at a word or more at a time where a loop looks at a byte.
    package func firstOffset(of byte: UInt8, from start: Int) -> Int? {
        guard let base = baseAddress, start >= 0, start < count,
            let hit = memchr(base + start, Int32(byte), count - start)
        else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
    }
}
