import Foundation
import Harness
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The test broker is ready when Mosquitto itself says it runs, not when something answers on
/// its port: a broker that could not open its listener is an error, never a foreign listener
/// mistaken for it.
@Suite("Mosquitto broker")
struct MosquittoBrokerTests {
    @Test func aBrokerWhosePortWasTakenMeanwhileFailsToStartAndSaysWhy() async throws {
        let broker = try await MosquittoBroker()
        await broker.kill()
        let squatter = try Self.listen(onLoopbackPort: broker.port)
        defer { close(squatter) }
        do {
            try await broker.start()
            Issue.record("started although port \(broker.port) is taken")
        } catch {
            #expect("\(error)".contains("Address already in use"), "\(error)")
            // Ended by the broker's exit, not by the start deadline running out.
            #expect("\(error)".contains("ended before printing"), "\(error)")
        }
        await broker.remove()
    }

    /// A socket listening on `port` of 127.0.0.1.
    static func listen(onLoopbackPort port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard bound, Glibc.listen(descriptor, 1) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw HarnessError("bind or listen on \(port): \(reason)")
        }
        return descriptor
    }
}
