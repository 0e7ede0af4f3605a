// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "floorscan",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Scan", targets: ["Scan"]),
        .executable(name: "switchd", targets: ["switchd"]),
        .executable(name: "scannerd", targets: ["scannerd"]),
        .executable(name: "floorscan-bench", targets: ["floorscan-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
        // scannerd's HTTP client: answers read with backpressure and a byte limit.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // Tests only: a clock the test advances by hand (TestClock), for every type that owns a timer.
        .package(url: "https://github.com/pointfreeco/swift-clocks.git", from: "1.1.1"),
    ],
    targets: [
        // Pure Swift: wire formats, domain model, the v1 JSON, simulation maths. No I/O.
        .target(name: "Scan"),
        // The system's zlib, for reading gzipped datasets in `scannerd evaluate`.
        // What both daemons need from their host: sd_notify, the watchdog, journal-friendly logs,
        // and the TOML configuration file (--config) read into their options.
        .target(
            name: "DaemonSupport",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // BlueZ's libbluetooth, for the BLE source's raw HCI socket.
        .systemLibrary(name: "CBluetooth", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),
        // libnl-genl-3 and the kernel's nl80211 header, for the Wi-Fi source.
        .systemLibrary(name: "CNetlinkGenl", pkgConfig: "libnl-genl-3.0", providers: [.apt(["libnl-genl-3-dev"])]),

        .executableTarget(
            name: "switchd",
            dependencies: [
                "Scan", "DaemonSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "scannerd",
            dependencies: [
                "Scan", "CZlib", "CBluetooth", "CNetlinkGenl", "DaemonSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Starts real switchd/scannerd processes on loopback; shared by the end-to-end tests and the benchmark.
        .target(name: "Harness", dependencies: ["Scan"]),
        .executableTarget(
            name: "floorscan-bench",
            dependencies: [
                "Scan", "Harness",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "ScanTests", dependencies: ["Scan"]),
        .testTarget(
            name: "DaemonSupportTests",
            dependencies: ["DaemonSupport", "Harness", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(
            name: "SwitchdTests",
            dependencies: [
                "switchd", "Scan", "Harness", "DaemonSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "ScannerdTests",
            dependencies: ["scannerd", "Scan", "DaemonSupport", .product(name: "Clocks", package: "swift-clocks")]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["Scan", "Harness"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets for the wire decoders in Scan, only when FLOORSCAN_FUZZ is set: their entry
// hands the process to libFuzzer, which only -sanitize=fuzzer links in, so a plain `swift build`
// could not link them. scripts/fuzz builds them in .build-fuzz with
// `-Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library`.
if Context.environment["FLOORSCAN_FUZZ"] != nil {
    package.targets.append(.target(name: "FuzzSupport"))
    for name in ["fuzz-hci", "fuzz-advertising", "fuzz-netlink"] {
        package.targets.append(.executableTarget(name: name, dependencies: ["Scan", "FuzzSupport"]))
        package.products.append(.executable(name: name, targets: [name]))
    }
}
