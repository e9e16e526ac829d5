## src/media: pictures: fetching, decoding, checking, rendering, OCR.
libaivista_a_SOURCES += \
	%D%/fetch.h %D%/fetch.c %D%/imgin.h %D%/imgin.c %D%/imgnorm.h %D%/imgnorm.c \
	%D%/imgsize.h %D%/imgsize.c %D%/ocr.h %D%/ocr.c %D%/palette.h %D%/palette.c \
	%D%/pixels.h %D%/pixels.c %D%/raster.h %D%/raster.c %D%/regions.h %D%/regions.c \
	%D%/svgcheck.h %D%/svgcheck.c
