import Glibc
import Testing
@testable import scannerd

/// ``HCISocket/receivePacket(from:timeout:device:)`` on a real packet socket pair: a packet per
/// read, in order; with no time to wait, nil at once when nothing is waiting.
@Suite("Reading packets from a packet socket", .timeLimit(.minutes(1)))
struct PacketReceiveTests {
    /// Runs `body` with a fresh pair, closed afterwards.
    func withSocketPair(_ body: (PacketSocketPair) throws -> Void) throws {
        let sockets = try PacketSocketPair.make()
        defer {
            sockets.closeControllerEnd()
            sockets.closeHostEnd()
        }
        try body(sockets)
    }

    @Test func withoutWaitingTheWaitingPacketsComeInOrderThenNil() throws {
        try withSocketPair { sockets in
            let host = sockets.hostEnd.rawValue
            #expect(try HCISocket.receivePacket(from: host, timeout: .zero, device: "pair") == nil)
            try sockets.send([0x04, 0x0E, 0x01, 0x01])
            try sockets.send([0x04, 0x3E, 0x02, 0x02, 0x00])
            #expect(try HCISocket.receivePacket(from: host, timeout: .zero, device: "pair") == [0x04, 0x0E, 0x01, 0x01])
            #expect(try HCISocket.receivePacket(from: host, timeout: .zero, device: "pair") == [0x04, 0x3E, 0x02, 0x02, 0x00])
            #expect(try HCISocket.receivePacket(from: host, timeout: .zero, device: "pair") == nil)
        }
    }

    @Test func withTimeToWaitAWaitingPacketComesAndSilenceGivesNil() throws {
        try withSocketPair { sockets in
            let host = sockets.hostEnd.rawValue
            try sockets.send([0x04, 0x0F, 0x00])
            #expect(try HCISocket.receivePacket(from: host, timeout: .seconds(10), device: "pair") == [0x04, 0x0F, 0x00])
            #expect(try HCISocket.receivePacket(from: host, timeout: .milliseconds(1), device: "pair") == nil)
        }
    }

    /// The biggest event a controller may send (type byte, header, 255 parameter bytes) comes
    /// whole, read with and without waiting, and a short one after it is not padded to its size.
    @Test func theLongestEventComesWholeAndAShortOneAfterItExactly() throws {
        try withSocketPair { sockets in
            let host = sockets.hostEnd.rawValue
            let longest: [UInt8] = [0x04, 0x3E, 0xFF] + (0..<255).map { UInt8($0) }
            for timeout in [Duration.zero, .seconds(10)] {
                try sockets.send(longest)
                try sockets.send([0x04, 0x0F, 0x00])
                #expect(try HCISocket.receivePacket(from: host, timeout: timeout, device: "pair") == longest)
                #expect(try HCISocket.receivePacket(from: host, timeout: timeout, device: "pair") == [0x04, 0x0F, 0x00])
            }
        }
    }

    @Test func aFailingReadThrowsNamingTheCall() throws {
        let error = #expect(throws: SystemError.self) { try HCISocket.receivePacket(from: -1, timeout: .zero, device: "pair") }
        #expect(error?.call == "recv" && error?.errno == EBADF && error?.path == "pair")
    }
}
