#if canImport(CGirdersCurl)
import CGirdersCurl

extension CurlTransfer {
    /// What libcurl measured for this transfer, read once it ended (on the engine's thread, before the handle goes
    /// back to the pool): its times, protocol, connections opened and bytes. A fact libcurl does not give leaves its
    /// field at zero.
    func measuredMetrics() -> RequestMetrics {
        let easy = handle.pointer
        func offset(_ info: CURLINFO) -> Int64 {
            var value: curl_off_t = 0
            return girders_easy_get_offset(easy, info, &value) == CURLE_OK ? Int64(value) : 0
        }
        func long(_ info: CURLINFO) -> Int {
            var value = 0
            return girders_easy_get_long(easy, info, &value) == CURLE_OK ? value : 0
        }
        let facts = RequestMetrics.CurlFacts(
            nameLookup: offset(CURLINFO_NAMELOOKUP_TIME_T), connect: offset(CURLINFO_CONNECT_TIME_T),
            appConnect: offset(CURLINFO_APPCONNECT_TIME_T), preTransfer: offset(CURLINFO_PRETRANSFER_TIME_T),
            startTransfer: offset(CURLINFO_STARTTRANSFER_TIME_T),
            total: offset(CURLINFO_TOTAL_TIME_T), httpVersion: long(CURLINFO_HTTP_VERSION),
            newConnections: long(CURLINFO_NUM_CONNECTS), requestHeadBytes: long(CURLINFO_REQUEST_SIZE),
            uploadedBytes: offset(CURLINFO_SIZE_UPLOAD_T), responseHeadBytes: long(CURLINFO_HEADER_SIZE),
            downloadedBytes: offset(CURLINFO_SIZE_DOWNLOAD_T))
        return RequestMetrics(url: wire.url, curl: facts)
    }
}
#endif
