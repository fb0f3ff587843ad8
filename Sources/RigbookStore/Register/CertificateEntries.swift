import RigbookCore

extension Register {
    /// What a record's certificate prints beside the record: its asset and its reg 10 notices.
    public func certificateEntry(for record: StoredInspection) throws(RegisterError) -> Certificate.Entry {
        guard let row = try asset(uuid: record.assetUUID) else {
            throw .unknownAsset(record.assetUUID.uuidString.lowercased())
        }
        return Certificate.Entry(record: record, asset: row.asset, notices: try notices(recordUUID: record.recordUUID),
                                 proof: try proof(of: record.recordUUID))
    }

    /// What a test's certificate prints beside the test: its asset, and the site and employer it belongs to in
    /// the register now (a test copies neither).
    public func certificateEntry(for test: StoredTest) throws(RegisterError) -> TestCertificate.Entry {
        guard let asset = try asset(uuid: test.assetUUID)?.asset else {
            throw .unknownAsset(test.assetUUID.uuidString.lowercased())
        }
        let particulars = try particulars()
        let site = particulars.site(ofAsset: asset.uuid)
        return TestCertificate.Entry(test: test, asset: asset,
                                     employer: site.flatMap { particulars.employers[$0.employerUUID] }, site: site,
                                     proof: try proof(of: test.testUUID))
    }
}
