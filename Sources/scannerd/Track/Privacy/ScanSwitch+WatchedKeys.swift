import ScanContract

extension ScanSwitch {
    /// ``watchedTags`` with each `irk` identity given its key from ``watchedKeys`` (by
    /// fingerprint); one whose key did not come stays without (and is never resolved).
    var watchedIdentities: [TagIdentity] {
        let tags = watchedTags ?? []
        guard let watchedKeys, !watchedKeys.isEmpty else { return tags }
        var keys: [String: IdentityResolvingKey] = [:]
        for watched in watchedKeys {
            // switchd writes 32 hex digits; a key that does not read is left out, never logged.
            if let key = try? IdentityResolvingKey(parsing: watched.key, order: .msbFirst) { keys[watched.fingerprint] = key }
        }
        return tags.map { identity in
            guard case .irk(var irk) = identity, let key = keys[irk.fingerprint] else { return identity }
            irk.key = key
            return .irk(irk)
        }
    }
}
