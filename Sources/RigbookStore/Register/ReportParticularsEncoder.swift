import Foundation
import RigbookCore

/// Encodes report particulars to the text `ParticularsJSON.encode` gives, byte for byte (sorted keys, no
/// escaped slashes), for the save path: the parts records share (employer, site, organisation, examiner) are
/// encoded once and kept, and the asset's part is written by hand. JSONEncoder was a third of a batch save's
/// time (300 records, each encoding all six parts).
final class ReportParticularsEncoder {
    private let encoder: JSONEncoder
    /// The text of each shared part seen, by value; a handful at most (one batch has one employer and site).
    private var parts: [AnyHashable: [UInt8]] = [:]

    init() {
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    func encode(_ particulars: ReportParticulars) throws -> String {
        // The keys in sorted order, as `.sortedKeys` writes them; a nil one left out, as the synthesised
        // encoding leaves it.
        var object = JSONObjectBytes()
        object.key("asset"); object.raw(Self.asset(particulars.asset))
        object.key("employer"); object.raw(try shared(particulars.employer))
        if let examiner = particulars.examiner { object.key("examiner"); object.raw(try shared(examiner)) }
        object.key("organisation"); object.raw(try shared(particulars.organisation))
        if let previous = particulars.previousThoroughExamination {
            object.key("previous_thorough_examination"); object.string(previous)
        }
        object.key("site"); object.raw(try shared(particulars.site))
        return String(decoding: object.closed(), as: UTF8.self)
    }

    /// `AssetParticulars` as JSONEncoder writes it (a UUID as its upper-case string).
    private static func asset(_ asset: AssetParticulars) -> [UInt8] {
        var object = JSONObjectBytes()
        object.key("asset_uuid"); object.string(asset.assetUUID.uuidString)
        object.key("declaration_date"); object.string(asset.declarationDate)
        object.key("declaration_reference"); object.string(asset.declarationReference)
        object.key("lessor"); object.string(asset.lessor)
        object.key("site_uuid"); object.string(asset.siteUUID.uuidString)
        object.key("swl_configurations"); object.string(asset.swlConfigurations)
        return object.closed()
    }

    private func shared<Part: Encodable & Hashable>(_ part: Part) throws -> [UInt8] {
        if let known = parts[AnyHashable(part)] { return known }
        if parts.count > 64 { parts.removeAll(keepingCapacity: true) }
        let encoded = Array(try encoder.encode(part))
        parts[AnyHashable(part)] = encoded
        return encoded
    }
}
