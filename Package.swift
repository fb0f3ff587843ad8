// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Rigbook",
    products: [
        .executable(name: "rigbook", targets: ["rigbook"]),
        .executable(name: "rigbook-bench", targets: ["rigbook-bench"]),
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
        // SHA-256 for the register's hash chain, from the system's libcrypto (never computed by hand).
        .systemLibrary(
            name: "CCrypto",
            path: "Sources/CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // QR codes for labels, from the system's libqrencode; only RigbookQR imports it.
        .systemLibrary(
            name: "CQRencode",
            path: "Sources/CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // The organisation's register on PostgreSQL, through libpq; only RigbookStore imports it.
        .systemLibrary(
            name: "CPostgres",
            path: "Sources/CPostgres",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // PDF: cairo's PDF surface for the page, pango for text layout and shaping; only RigbookPDF imports it.
        .systemLibrary(
            name: "CPangoCairo",
            path: "Sources/CPangoCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        // qpdf's C API: files embedded in cairo's output, which cairo cannot write; only RigbookPDF imports it.
        .systemLibrary(
            name: "CQPDF",
            path: "Sources/CQPDF",
            pkgConfig: "libqpdf",
            providers: [.apt(["libqpdf-dev"])]
        ),
        .target(name: "RigbookCore"),
        // A printed document (`PrintedDocument`) drawn as PDF: the one module that imports CPangoCairo and CQPDF.
        .target(name: "RigbookPDF", dependencies: ["RigbookCore", "RigbookQR", "CPangoCairo", "CQPDF"]),
        // Payload in, QR modules out: the one file that imports CQRencode (docs/DECISIONS.md, "Labels").
        .target(name: "RigbookQR", dependencies: ["RigbookCore", "CQRencode"]),
        .target(name: "RigbookStore", dependencies: ["RigbookCore", "CSQLite", "CCrypto", "CPostgres"]),
        .target(name: "RigbookUI", dependencies: ["RigbookCore"]),
        // The running program without a terminal: effects, the event loop's logic. Tests and the
        // benchmark drive it on an in-memory screen; the executable adds curses and the command line.
        .target(name: "RigbookApp", dependencies: ["RigbookCore", "RigbookStore", "RigbookUI", "RigbookQR", "RigbookPDF"]),
        .executableTarget(
            name: "rigbook",
            dependencies: ["RigbookCore", "RigbookStore", "RigbookUI", "RigbookApp", "RigbookQR", "RigbookPDF",
                           "CNcurses"]
        ),
        // Speed and memory figures (`swift run -c release rigbook-bench`); tests never time anything.
        .executableTarget(
            name: "rigbook-bench",
            dependencies: ["RigbookCore", "RigbookStore", "RigbookUI", "RigbookApp", "RigbookPDF"]
        ),
        // What several test targets share (the CSV reader, the seeded generator); no product code uses it.
        .target(name: "RigbookTestSupport", dependencies: ["RigbookCore"], path: "Tests/RigbookTestSupport"),
        .testTarget(name: "RigbookCoreTests", dependencies: ["RigbookCore", "RigbookQR", "RigbookTestSupport"]),
        .testTarget(name: "RigbookPDFTests", dependencies: ["RigbookPDF", "RigbookCore", "RigbookTestSupport"]),
        .testTarget(name: "RigbookStoreTests", dependencies: ["RigbookStore", "RigbookCore", "RigbookTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(
            name: "RigbookUITests",
            dependencies: ["RigbookUI", "RigbookApp", "RigbookStore", "RigbookCore", "RigbookTestSupport"]
        ),
        // Runs the built `rigbook` binary: command line and, in tmux, the full-screen program.
        .testTarget(name: "RigbookCLITests", dependencies: ["rigbook", "RigbookTestSupport"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
