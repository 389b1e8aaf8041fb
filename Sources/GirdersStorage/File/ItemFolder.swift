import Foundation

/// The files of one `items-<generation>` folder: every name not starting with `.` is an item file, and a file
/// that is not a valid item of this store is ``StorageError/corrupted(path:reason:)``.
enum ItemFolder {
    /// The item file names in `folder`.
    static func fileNames(_ folder: String) throws(StorageError) -> [String] {
        try StoreFolder.entries(folder).filter { !$0.hasPrefix(".") }
    }

    /// The name and value in the item file `fileName`, or `nil` when there is no such file. `expectedName` is
    /// the name `fileName` was derived from, when the caller knows it.
    static func read(
        _ fileName: String, in folder: String, context: StoreItem.Context, expectedName: String? = nil
    ) throws(StorageError) -> (name: String, value: Data)? {
        let path = folder + "/" + fileName
        guard let bytes = try DurableFile.read(path, maximumSize: StoreItem.maximumLength) else { return nil }
        return try StoreItem.open(bytes, fileName: fileName, context: context, path: path, expectedName: expectedName)
    }

    /// Every item in `folder`, each checked (tag, embedded name, file name).
    static func items(
        in folder: String, context: StoreItem.Context
    ) throws(StorageError) -> [(
        name: String, value: Data
    )] {
        var result: [(name: String, value: Data)] = []
        for fileName in try fileNames(folder) {
            if let item = try read(fileName, in: folder, context: context) { result.append(item) }
        }
        return result
    }

    /// Writes `value` under `name` durably; `scratch` is the reusable encryption buffer.
    static func write(
        _ value: Data, name: String, in folder: String, context: StoreItem.Context, scratch: inout [UInt8]
    ) throws(StorageError) {
        let fileName = try StoreItem.fileName(for: name, nameKey: context.nameKey)
        try StoreItem.seal(name: name, value: value, fileName: fileName, context: context, into: &scratch)
        try DurableFile.write(scratch, to: folder + "/" + fileName)
        if scratch.capacity > 4 << 20 { scratch = [] }
    }
}
