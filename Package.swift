// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Rigbook",
    products: [
        .executable(name: "rigbook", targets: ["rigbook"]),
    ],
    targets: [
        // C libraries come in as system library targets: no Swift package dependencies.
        .systemLibrary(
            name: "CNcurses",
            path: "CNcurses",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "RigbookCore"),
        .target(name: "RigbookStore", dependencies: ["RigbookCore", "CSQLite"]),
        .target(name: "RigbookUI", dependencies: ["RigbookCore"]),
        .executableTarget(
            name: "rigbook",
            dependencies: ["RigbookCore", "RigbookStore", "RigbookUI", "CNcurses"]
        ),
        .testTarget(name: "RigbookCoreTests", dependencies: ["RigbookCore"]),
        .testTarget(name: "RigbookStoreTests", dependencies: ["RigbookStore", "RigbookCore"]),
        .testTarget(name: "RigbookUITests", dependencies: ["RigbookUI", "RigbookCore"]),
        // Runs the built `rigbook` binary: command line and, in tmux, the full-screen program.
        .testTarget(name: "RigbookCLITests", dependencies: ["rigbook"]),
    ],
    swiftLanguageModes: [.v6]
)
