import Foundation

/// libFuzzer entry: the input as a store header, and as an item's plaintext sealed with a fixed key so that
/// decoding continues past the authentication tag.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStorageDecoding(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? StoreFormat.Header.parse(bytes, path: "fuzz/store.header")
    let key = [UInt8](repeating: 7, count: 32)
    let nonce = [UInt8](repeating: 1, count: Crypto.nonceLength)
    let prefix = StoreFormat.itemMagic + [StoreFormat.version] + nonce
    var sealed: [UInt8] = []
    do {
        try Crypto.seal(
            prefix: prefix, body: Data(bytes), tail: [], key: key, nonce: nonce,
            aad: StoreFormat.associatedData(prefix[...], "item"), into: &sealed)
    } catch {
        return 0
    }
    _ = try? StoreFormat.openItem(sealed, fileName: "item", key: key, path: "fuzz/item")
    return 0
}
