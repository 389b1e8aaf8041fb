import Foundation

@testable import GirdersStorage

/// libFuzzer entry: the input as a store header, and as an item's plaintext sealed with a fixed key so that
/// decoding continues past the authentication tag (name length, UTF-8 check, name-to-file binding).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStorageDecoding(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? StoreHeader.parse(bytes, path: "fuzz/store.header")
    let context = StoreItem.Context(
        encryptionKey: [UInt8](repeating: 7, count: 32), nameKey: [UInt8](repeating: 9, count: 32),
        storeIdentifier: [UInt8](repeating: 3, count: StoreHeader.saltLength), version: StoreHeader.currentVersion)
    let nonce = [UInt8](repeating: 1, count: Crypto.nonceLength)
    let prefix = StoreItem.magic + [context.version] + nonce
    var sealed: [UInt8] = []
    do {
        try Crypto.seal(
            prefix: prefix, body: Data(bytes), tail: [], key: context.encryptionKey, nonce: nonce,
            aad: StoreItem.associatedData(prefix[...], "item", context), into: &sealed)
    } catch {
        return 0
    }
    _ = try? StoreItem.open(sealed, fileName: "item", context: context, path: "fuzz/item")
    return 0
}
