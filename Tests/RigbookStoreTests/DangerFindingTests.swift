import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

@Suite("Register.dangerousFindings: what the report keeps visible for its period")
struct DangerFindingTests {
    @Test("dangerous fails and withdrawals dated in the period, amended ones left out, in date order")
    func findings() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            let asset = makeAsset(commissioned: "2024-01-10", intervalMonths: 6)
            try register.addAsset(asset)
            func save(_ values: InspectionValues, amends: Int64? = nil) throws -> Int64 {
                let amending = try amends.flatMap { try register.inspection(id: $0) }
                return try register.insert(try validated(values, for: asset, amending: amending), saved: SaveStamp())
            }
            var withdrawn = passingValues(.preUse, on: "2026-03-02")
            withdrawn.result = .passWithObservations
            withdrawn.checkCorrosion = false
            withdrawn.defectDescription = "Label gone"
            withdrawn.action = .withdraw
            let before = try save(failingValues(on: "2026-01-05"))                 // before the period
            let failed = try save(failingValues(.preUse, on: "2026-02-20"))
            let amended = try save(failingValues(.interim, on: "2026-02-25"))
            _ = try save(passingValues(.interim, on: "2026-02-25"), amends: amended) // corrected: not a finding
            let out = try save(withdrawn)
            _ = try save(passingValues(on: "2026-03-10"))
            let found = try register.dangerousFindings(from: day("2026-02-13"), through: day("2026-03-15"))
            #expect(found.map(\.id) == [failed, out])
            #expect(!found.map(\.id).contains(before))
            #expect(found.compactMap(DangerFinding.init).map(\.text) == [
                "failed dangerous on 2026-02-20 · Pre-use check #\(failed)",
                "withdrawn on 2026-03-02 · Pre-use check #\(out)",
            ])
            #expect(try register.dangerousFindings(from: day("2026-03-03"), through: day("2026-03-15")).isEmpty)
        }
    }
}
