/* Elements of a picture found without a model: the background colour is
 * estimated, the picture is cut into a grid of small cells, the cells
 * that differ from the background are joined into connected regions, close
 * regions are merged (the letters of a word, the words of a line), and
 * each region is classified by its shape, fill and colours as text, button,
 * icon, image or shape. Deterministic: the same pixels give the same
 * elements. For the offline element detection of the orchestrate
 * workflow's vision agents. */
#ifndef AV_REGIONS_H
#define AV_REGIONS_H
#include <stddef.h>
#include <jansson.h>
#include "media/pixels.h"

/* px borrowed. New reference to {"imageSize": {"width", "height"},
 * "background": "#rrggbb", "elements": [{"type": "text" | "button" |
 * "icon" | "image" | "shape", "description" (English), "boundingBox":
 * {"x", "y", "width", "height"}, "fill": 0..1, "color": "#rrggbb"}]}: at
 * most max_regions elements (the largest kept), in reading order (top to
 * bottom, then left to right). An empty picture gives no elements. */
json_t *regions_detect(const struct pixels *px, size_t max_regions);

#endif
