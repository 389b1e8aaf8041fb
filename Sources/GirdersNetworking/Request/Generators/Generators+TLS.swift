public import Foundation
public import GirdersConfig

// Generator functions for TLS trust anchors and client identities.

/// Trust anchors and a client identity for TLS; see ``TLSCredentials`` for what each platform supports.
public func withSSLCredentials(_ credentials: TLSCredentials) -> RequestTransform {
    { (request: consuming MutableRequest) in
        request.tlsCredentials = credentials
        return request
    }
}

/// GirdersSwift's pipe stage: TLS credentials from ``NetworkingDefaults/configuration``, read as
/// ``withSSLCredentials(from:bundle:)`` reads them from the main bundle.
///
/// ```swift
/// request(withMethod: method) |> withJsonSupport |> withSSLCredentials |> withBasicAuth
/// ```
///
/// With none of the keys configured (or no configuration installed) the request passes through unchanged. On
/// Linux, where FoundationNetworking cannot present them, a request with configured credentials fails with
/// ``ResponseError/unsupported(feature:)`` before anything is sent.
public func withSSLCredentials(_ request: consuming MutableRequest) -> MutableRequest {
    guard let configuration = NetworkingDefaults.configuration else { return request }
    return request |> withSSLCredentials(from: configuration)
}

/// TLS credentials named by a configuration, as GirdersSwift read them: `caServer` names a DER certificate
/// resource in `bundle` that becomes the only trust anchor; `clientP12` names a PKCS#12 resource presented as the
/// client identity, opened with `clientP12Password`.
///
/// With none of the three keys the request passes through unchanged. Unlike GirdersSwift, which then sent the
/// request without them, a key that is present but unusable (not a string, a resource that is missing, not a
/// regular file, larger than 1 MiB or named with a path, `clientP12` without its password or the other way round)
/// fails the request with ``ResponseError/invalidRequest(reason:)`` naming the key.
public func withSSLCredentials(
    from configuration: any ConfigurationReading, bundle: Bundle = .main
) -> RequestTransform {
    let result = TLSResourceLoader(configuration: configuration, bundle: bundle).credentials()
    return { (request: consuming MutableRequest) in
        switch result {
        case .success(let credentials?): request.tlsCredentials = credentials
        case .success(nil): break
        case .failure(let failure): request.fail("withSSLCredentials: \(failure.reason)")
        }
        return request
    }
}

/// Reads the configuration keys and bundle resources ``withSSLCredentials(from:bundle:)`` turns into
/// ``TLSCredentials``.
struct TLSResourceLoader {
    struct Failure: Error {
        let reason: String
    }

    static let caServerKey = "caServer"
    static let clientP12Key = "clientP12"
    static let clientP12PasswordKey = "clientP12Password"
    /// Certificates and PKCS#12 archives are a few KiB; anything larger is not one.
    static let maximumResourceSize = 1 << 20

    let configuration: any ConfigurationReading
    let bundle: Bundle

    /// The credentials, `nil` when none of the keys is configured, or why they cannot be used.
    func credentials() -> Result<TLSCredentials?, Failure> {
        do throws(Failure) {
            let hasAnchor = configuration.lookup(Self.caServerKey) != nil
            let hasIdentity =
                configuration.lookup(Self.clientP12Key) != nil
                || configuration.lookup(Self.clientP12PasswordKey) != nil
            guard hasAnchor || hasIdentity else { return .success(nil) }
            var credentials = TLSCredentials()
            if hasAnchor {
                credentials.anchorCertificates = [try resource(namedBy: Self.caServerKey)]
            } else {
                credentials.trustsOnlyAnchors = false
            }
            if hasIdentity {
                let archive = try resource(namedBy: Self.clientP12Key)
                let password = try string(Self.clientP12PasswordKey)
                credentials.clientIdentity = .init(pkcs12: archive, password: password)
            }
            return .success(credentials)
        } catch {
            return .failure(error)
        }
    }

    private func string(_ key: String) throws(Failure) -> String {
        do {
            return try configuration.requiredValue(forKey: key, as: String.self)
        } catch {
            throw Failure(reason: "\(error)")
        }
    }

    /// The bytes of the bundle resource the configuration names under `key`.
    private func resource(namedBy key: String) throws(Failure) -> Data {
        let name = try string(key)
        guard !name.isEmpty, !name.hasPrefix("."), !name.contains("/"), !name.contains("\0") else {
            throw Failure(reason: "\(key) must name a resource of the bundle, not a path: \(name.debugDescription)")
        }
        guard let url = bundle.url(forResource: name, withExtension: nil) else {
            let folder = bundle.resourcePath ?? bundle.bundlePath
            throw Failure(reason: "\(key) names \(name.debugDescription), which is not in \(folder)")
        }
        do {
            let values = try url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey])
            guard values.isRegularFile == true, (values.fileSize ?? 0) <= Self.maximumResourceSize else {
                throw Failure(
                    reason: "\(key): \(url.path) is not a regular file of at most \(Self.maximumResourceSize) bytes")
            }
            let data = try Data(contentsOf: url)
            guard !data.isEmpty, data.count <= Self.maximumResourceSize else {
                throw Failure(reason: "\(key): \(url.path) is empty or larger than \(Self.maximumResourceSize) bytes")
            }
            return data
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(reason: "\(key): cannot read \(url.path): \(error.localizedDescription)")
        }
    }
}
