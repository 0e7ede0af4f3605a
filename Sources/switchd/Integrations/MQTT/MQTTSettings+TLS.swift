import NIOSSL

extension MQTTSettings {
    /// The TLS context for an `mqtts://` broker, trusting `caFile` (else the system's CAs); nil
    /// for plain MQTT.
    ///
    /// - Throws: ``MQTTSettingsError`` naming the CA file when it cannot be read as PEM.
    func makeTLSContext() throws -> NIOSSLContext? {
        guard broker.usesTLS else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile {
            do {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile))
            } catch {
                throw MQTTSettingsError("--mqtt-ca-file \(caFile): not a readable PEM certificate file: \(error)")
            }
        }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw MQTTSettingsError("cannot set up TLS for the MQTT broker: \(error)")
        }
    }
}
