import type { GlobalThemeOverrides } from 'naive-ui';

/** The studio palette; base.css mirrors these as CSS variables for the shell's own elements. */
export const palette = {
  canvas: '#0e1016',
  sider: '#12141b',
  surface: '#171a22',
  raised: '#1d212b',
  border: '#262b37',
  text: '#e7e9f0',
  muted: '#9aa1b2',
  faint: '#6b7284',
  primary: '#8b7cf6',
  primaryHover: '#a195f8',
  primaryPressed: '#7465e6',
  success: '#3ecf8e',
  warning: '#f0b44c',
  error: '#f06a6a',
  info: '#5aa9f6',
} as const;

export const themeOverrides: GlobalThemeOverrides = {
  common: {
    fontFamily:
      "'Inter', 'Segoe UI', system-ui, -apple-system, 'Helvetica Neue', Arial, 'Noto Sans SC Variable', 'Noto Sans KR Variable', sans-serif",
    fontFamilyMono: "'JetBrains Mono', 'SFMono-Regular', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
    primaryColor: palette.primary,
    primaryColorHover: palette.primaryHover,
    primaryColorPressed: palette.primaryPressed,
    primaryColorSuppl: palette.primary,
    successColor: palette.success,
    warningColor: palette.warning,
    errorColor: palette.error,
    infoColor: palette.info,
    bodyColor: palette.canvas,
    cardColor: palette.surface,
    modalColor: palette.raised,
    popoverColor: palette.raised,
    borderColor: palette.border,
    dividerColor: palette.border,
    borderRadius: '8px',
    borderRadiusSmall: '6px',
    textColorBase: palette.text,
    textColor1: palette.text,
    textColor2: '#c9cdd8',
    textColor3: palette.muted,
  },
  Card: { borderColor: palette.border, titleFontSizeMedium: '15px', paddingMedium: '18px 20px 20px' },
  Layout: { color: palette.canvas, siderColor: palette.sider, siderBorderColor: palette.border },
  Tag: { borderRadius: '999px' },
};
