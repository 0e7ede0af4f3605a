// swift-tools-version:6.1
import PackageDescription

// The targets are split by the direction of dependency, so the compiler keeps the layers apart:
//
//   ScanContract ← Positioning ← Evaluation ← floorscan-evaluate
//        ↑              ↑
//        ├──────────────┴── switchd, scannerd, Harness, floorscan-bench
//   RadioWire ← scannerd, fuzz-*        (RadioWire depends on nothing)
//
// switchd never compiles radio decoders (it does not depend on RadioWire), neither daemon carries
// the dataset evaluator, its ZIP/XLSX readers or zlib (only floorscan-evaluate depends on
// Evaluation), and the v1 contract imports only FoundationEssentials. docs/architecture.md has the picture,
// drawn from this file by scripts/architecture-graph.
let package = Package(
    name: "floorscan",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ScanContract", targets: ["ScanContract"]),
        .executable(name: "switchd", targets: ["switchd"]),
        .executable(name: "scannerd", targets: ["scannerd"]),
        .executable(name: "floorscan-evaluate", targets: ["floorscan-evaluate"]),
        .executable(name: "floorscan-bench", targets: ["floorscan-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // Tests only: a clock the test advances by hand (TestClock), for every type that owns a timer.
        .package(url: "https://github.com/pointfreeco/swift-clocks.git", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // switchd's webhook deliveries and the fleet benchmark: answers read with backpressure and a byte limit.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // switchd's PostgreSQL store, for several instances on one database (docs/scale-out.md).
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        // The v1 contract: domain types (Measurement, MACAddress, BeaconID, …), the v1 JSON of every
        // endpoint, and the scan switch. FoundationEssentials only, no I/O; everything else builds on it.
        .target(name: "ScanContract"),
        // The radio wire formats scannerd reads: the bounds-checked byte reader, HCI events, LE
        // advertising data and beacon frames, netlink and nl80211. Depends on nothing at all; its
        // addresses and beacon IDs are wire values that scannerd maps into the contract.
        .target(name: "RadioWire"),
        // Positioning maths: Wi-Fi fingerprints and kNN, BLE path loss, trilateration and fusion,
        // the radio map, RSSI filters, routes on the plan and the simulated floor. Pure, no I/O.
        .target(name: "Positioning", dependencies: ["ScanContract"]),
        // The offline evaluator's library: public-dataset parsers, the gzip and XLSX readers behind
        // them (zlib; ZIPFoundation for the workbooks' ZIP) and the error metrics. Only
        // floorscan-evaluate and its tests use it.
        .target(
            name: "Evaluation",
            dependencies: ["ScanContract", "Positioning", "CSystemZlib", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),

        // What both daemons need from their host: sd_notify, the watchdog, journal-friendly logs,
        // the TOML configuration file (--config) read into their options, token files, and a small
        // service group with graceful shutdown on SIGTERM (scannerd's: swift-service-lifecycle and the
        // swift-async-algorithms and swift-collections it brings weighed 1.4 MB in the arm64 binary;
        // switchd keeps them for Hummingbird).
        .target(
            name: "DaemonSupport",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The system's zlib, for reading gzipped datasets in floorscan-evaluate (not named CZlib:
        // ZIPFoundation has a module of that name).
        .systemLibrary(name: "CSystemZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // BlueZ's libbluetooth, for the BLE source's raw HCI socket.
        .systemLibrary(name: "CBluetooth", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),
        // libnl-genl-3 and the kernel's nl80211 header, for the Wi-Fi source.
        .systemLibrary(name: "CNetlinkGenl", pkgConfig: "libnl-genl-3.0", providers: [.apt(["libnl-genl-3-dev"])]),
        // libcurl (OpenSSL flavour, libcurl4 on Debian and Raspberry Pi OS), for scannerd's HTTP client:
        // a shared system library instead of SwiftNIO, AsyncHTTPClient and BoringSSL compiled in.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // OpenSSL's libcrypto (libssl-dev), for scannerd's resolution of rotating private Bluetooth
        // addresses (AES-128): libcurl already loads it on the Pi, where swift-crypto would compile
        // a second copy of BoringSSL into scannerd (docs/phones.md).
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libxml2, for switchd's SVG floor plans: parsed with options switchd chooses (no entities, no
        // DTD, no network), which FoundationXML's XMLParser does not let it set.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),

        // switchd's storage: contract values in, contract values out, through GRDB records. It knows
        // nothing of HTTP, feeds or tokens' secrets; switchd itself does not link GRDB, so no row is
        // read outside this target. Its PostgreSQL driver (docs/scale-out.md) is PostgresNIO on
        // swift-nio's event loops.
        .target(
            name: "SwitchdStore",
            dependencies: [
                "ScanContract", "Positioning", .product(name: "GRDB", package: "GRDB.swift"),
                // sqlite3_wal_hook, for the WAL checkpointer (GRDB does not wrap it).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "switchd",
            dependencies: [
                "ScanContract", "Positioning", "SwitchdStore", "DaemonSupport", "CLibXML2",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                // HTTP/2 over TLS, chosen by ALPN, so a page's live feeds share one connection.
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                // The MQTT client's socket (docs/mqtt.md says why MQTT is spoken over swift-nio).
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // Webhook deliveries: redirects refused, answers read up to a limit.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .executableTarget(
            name: "scannerd",
            dependencies: [
                "ScanContract", "RadioWire", "Positioning", "CBluetooth", "CNetlinkGenl", "CCurl", "CLibCrypto", "DaemonSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Measures the positioning methods on public datasets and prints JSON metrics (what
        // `scannerd evaluate` used to do); a lab tool, not shipped on the Pi. Harness starts the
        // switchd that `tags` replays fixed scanners' sightings through.
        .executableTarget(
            name: "floorscan-evaluate",
            dependencies: [
                "ScanContract", "Positioning", "Evaluation", "Harness", "DaemonSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Starts real switchd/scannerd processes on loopback and finds the public datasets; shared
        // by the end-to-end tests, the dataset suites and the benchmark.
        .target(name: "Harness", dependencies: ["ScanContract", "DaemonSupport"]),
        .executableTarget(
            name: "floorscan-bench",
            dependencies: [
                "ScanContract", "Positioning", "Harness", "DaemonSupport",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The fleet benchmark's client: thousands of connections from one process.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // The delivery benchmark's webhook receivers.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),

        .testTarget(name: "ScanContractTests", dependencies: ["ScanContract", "Positioning"]),
        .testTarget(name: "RadioWireTests", dependencies: ["RadioWire", "Harness"]),
        .testTarget(name: "PositioningTests", dependencies: ["Positioning", "ScanContract"]),
        .testTarget(
            name: "EvaluationTests",
            dependencies: ["Evaluation", "floorscan-evaluate", "Positioning", "ScanContract", "Harness"]
        ),
        .testTarget(
            name: "DaemonSupportTests",
            dependencies: [
                "DaemonSupport", "Harness",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        .testTarget(
            name: "SwitchdTests",
            dependencies: [
                "switchd", "SwitchdStore", "ScanContract", "Positioning", "Harness", "DaemonSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Clocks", package: "swift-clocks"),
                // Checks webhook signatures the way a receiver would.
                .product(name: "Crypto", package: "swift-crypto"),
                // An HTTP/2 client over TLS, as browsers are to switchd with a certificate.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            // Read through #filePath, not as bundle resources.
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "ScannerdTests",
            dependencies: [
                "scannerd", "ScanContract", "RadioWire", "Positioning", "DaemonSupport", "Harness",
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["ScanContract", "Positioning", "Harness"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets for the wire decoders in RadioWire, only when FLOORSCAN_FUZZ is set: their
// entry hands the process to libFuzzer, which only -sanitize=fuzzer links in, so a plain
// `swift build` could not link them. scripts/fuzz builds them in .build-fuzz with
// `-Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library`.
if Context.environment["FLOORSCAN_FUZZ"] != nil {
    package.targets.append(.target(name: "FuzzSupport"))
    for name in ["fuzz-hci", "fuzz-advertising", "fuzz-netlink"] {
        package.targets.append(.executableTarget(name: name, dependencies: ["RadioWire", "FuzzSupport"]))
        package.products.append(.executable(name: name, targets: [name]))
    }
}
