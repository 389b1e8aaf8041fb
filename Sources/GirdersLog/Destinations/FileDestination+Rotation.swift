import GirdersSupport

/// Writing chunks of whole lines, rotating between them when a file would grow past its maximum size.
extension FileDestination {
    /// Appends `chunk` (whole lines) to the file, rotating where needed. Returns a failure description.
    func append(_ chunk: [UInt8], to file: inout OpenFile) -> String? {
        var failure: String?
        chunk.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let end = endOfNextWrite(in: bytes, from: offset, fileSize: file.size)
                if end == offset {
                    failure = rotate(&file) ?? failure
                    continue
                }
                if file.descriptor < 0 {
                    failure = failure ?? "the file is not open"
                    return
                }
                if let code = POSIXFile.writeAll(file.descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                {
                    failure = POSIXFile.describe(code)
                    return
                }
                file.size += end - offset
                offset = end
            }
        }
        return failure
    }

    /// Where the next write should stop: all remaining bytes without rotation, else the last line that fits.
    /// Returns `offset` itself when the file must rotate first. A line longer than the maximum goes alone into an
    /// empty file.
    func endOfNextWrite(in bytes: UnsafeRawBufferPointer, from offset: Int, fileSize: Int) -> Int {
        guard let rotation else { return bytes.count }
        let room = rotation.maximumFileSize - fileSize
        if bytes.count - offset <= room { return bytes.count }
        let newline = UInt8(ascii: "\n")
        if room > 0, let last = bytes[offset..<(offset + room)].lastIndex(of: newline) {
            return last + 1
        }
        if fileSize > 0 { return offset }
        let firstLineEnd = bytes[offset...].firstIndex(of: newline).map { $0 + 1 } ?? bytes.count
        return firstLineEnd
    }

    /// Renames `name` to `name.1`, shifting older archives, and opens a new, empty file.
    func rotate(_ file: inout OpenFile) -> String? {
        guard let rotation else { return nil }
        let path = url.path
        POSIXFile.closeDescriptor(file.descriptor)
        if rotation.keptFiles == 0 {
            POSIXFile.removeFile(path)
        } else {
            POSIXFile.removeFile("\(path).\(rotation.keptFiles)")
            for index in stride(from: rotation.keptFiles - 1, through: 1, by: -1) {
                POSIXFile.renameFile("\(path).\(index)", to: "\(path).\(index + 1)")
            }
            POSIXFile.renameFile(path, to: "\(path).1")
        }
        file.size = 0
        switch POSIXFile.openForAppending(path) {
        case .success(let descriptor):
            file.descriptor = descriptor
            return nil
        case .failure(let failure):
            file.descriptor = -1
            return "cannot reopen after rotation: \(failure.description)"
        }
    }
}
