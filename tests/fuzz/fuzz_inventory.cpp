// libFuzzer target: the Tier 2 zone inventory parser (core/canvas/inventoryparser.h), the way the canvas
// mapper uses it: a model's reply for a screenshot of a region, scaled back to the screen, then the zones
// in a zone map. The first two bytes pick the region's size, the rest is the reply (UTF-8).

#include "core/canvas/inventorymerge.h"
#include "core/canvas/inventoryparser.h"
#include "core/model/zonemap.h"
#include "core/providers/screenshotscaler.h"
#include "tests/fuzz/fuzzsupport.h"

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    ciu::fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 2)
        return 0;
    using namespace ciu;
    // Regions from 16×9 px to a 4K screen: the scaler's ratios and the box checks are both exercised.
    const QSize region(16 + int(data[0]) * 15, 9 + int(data[1]) * 8);
    const QPoint offset(int(data[0]) * 3, int(data[1]) * 2);
    const QString reply = QString::fromUtf8(reinterpret_cast<const char*>(data + 2), qsizetype(size - 2));

    const director::ScreenshotScaler scaler(region);
    canvas::InventoryParseOptions options;
    options.imageSize = scaler.targetSize();
    options.toScreen = [scaler, offset](const QRect& r) { return scaler.toScreen(r).translated(offset); };
    const canvas::InventoryReport report = canvas::parseInventory(reply, options);
    if (report.accepted != report.zones.size() || report.accepted + report.rejected > report.total)
        abort();
    if (!report.ok() && (report.error.isEmpty() || !report.zones.isEmpty()))
        abort();

    const QSize screen(region.width() + offset.x(), region.height() + offset.y());
    const QList<Zone> merged = canvas::mergeInventory(report.zones, {});
    const ZoneMap map(1, 0, screen, merged);
    for (const Zone& zone : report.zones)
        map.zoneAt(zone.bounds.center());
    return 0;
}
